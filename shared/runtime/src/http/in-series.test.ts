import type { AddressInfo } from 'node:net';
import type { NextFunction, Request, Response } from 'express';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inSeries } from './in-series.ts';

// Handlers mounted as one layer must behave as express runs them mounted side by side: in order,
// each on `next()`, the path trimmed alike, an error (passed, thrown or rejected) to the app's error
// handler with the rest skipped, and on past the mount when the last calls `next()`.
describe('inSeries', () => {
  let url: string;
  let close: () => Promise<void>;
  const ran: string[] = [];

  beforeAll(async () => {
    const app = express();
    const mark = (name: string) => (req: Request, _res: Response, next: NextFunction) => {
      ran.push(`${name} ${req.baseUrl} ${req.url}`);
      next();
    };
    const byQuery = (req: Request, res: Response, next: NextFunction) => {
      const what = req.query.what;
      if (what === 'answer') res.json({ answered: 'by the second' });
      else if (what === 'pass') next(new Error('passed'));
      else if (what === 'throw') throw new Error('thrown');
      else if (what === 'reject') return Promise.reject(new Error('rejected'));
      else if (what === 'route') next('route');
      else next();
    };
    const router = express.Router();
    router.post('/', (_req, res) => res.json({ answered: 'by the router' }));
    app.use('/rpc', inSeries(mark('first'), byQuery, mark('third'), router));
    app.use('/rpc', (_req, res) => res.json({ answered: 'past the mount' }));
    app.use((error: Error, _req: Request, res: Response, _next: NextFunction) => {
      res.status(500).json({ error: error.message });
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => new Promise((resolve) => server.close(() => resolve()));
  });
  afterAll(() => close());

  const call = async (method: string, what: string) => {
    ran.length = 0;
    const response = await fetch(`${url}/rpc?what=${what}`, { method });
    return { status: response.status, body: (await response.json()) as unknown, ran: [...ran] };
  };

  it('runs each in order on next(), with the path trimmed as for a mount, the last one answering', async () => {
    expect(await call('POST', 'go')).toEqual({ status: 200, body: { answered: 'by the router' }, ran: ['first /rpc /?what=go', 'third /rpc /?what=go'] });
  });

  it('stops at the handler that answers', async () => {
    expect(await call('POST', 'answer')).toEqual({ status: 200, body: { answered: 'by the second' }, ran: ['first /rpc /?what=answer'] });
  });

  it('goes on past the mount when the last one calls next(), and when one skips the rest', async () => {
    expect(await call('GET', 'go')).toMatchObject({ body: { answered: 'past the mount' }, ran: ['first /rpc /?what=go', 'third /rpc /?what=go'] });
    expect(await call('POST', 'route')).toMatchObject({ body: { answered: 'past the mount' }, ran: ['first /rpc /?what=route'] });
  });

  it("hands an error passed to next, thrown or rejected to the app's error handler, skipping the rest", async () => {
    for (const what of ['pass', 'throw', 'reject'] as const) {
      const { status, body, ran: seen } = await call('POST', what);
      expect({ status, body, seen }).toEqual({ status: 500, body: { error: { pass: 'passed', throw: 'thrown', reject: 'rejected' }[what] }, seen: [`first /rpc /?what=${what}`] });
    }
  });
});
