import type { AddressInfo } from 'node:net';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inSeries } from './in-series.ts';

// Handlers mounted as one layer must behave exactly as express runs the same handlers mounted side
// by side: the same handlers are mounted both ways, on two paths, and every case is asked of both.
describe('inSeries', () => {
  let url: string;
  let close: () => Promise<void>;
  const ran: string[] = [];

  beforeAll(async () => {
    const app = express();
    const mark =
      (name: string): RequestHandler =>
      (req, _res, next) => {
        ran.push(`${name} ${req.baseUrl} ${req.url}`);
        next();
      };
    const byQuery: RequestHandler = (req, res, next) => {
      const what = req.query.what;
      if (what === 'answer') res.json({ answered: 'by the second' });
      else if (what === 'pass') next(new Error('passed'));
      else if (what === 'falsy') next(0 as never);
      else if (what === 'throw') throw new Error('thrown');
      else if (what === 'reject') return Promise.reject(new Error('rejected'));
      else if (what === 'reject-falsy') return Promise.reject(undefined);
      // biome-ignore lint/suspicious/noThenProperty: a thenable is what this case hands the router.
      else if (what === 'thenable') return { then: (_resolve: unknown, reject: (reason: unknown) => void) => reject(new Error('thenable')) } as never;
      else if (what === 'route') next('route');
      else if (what === 'router') next('router');
      else next();
    };
    const catching = ((error: Error, _req: Request, res: Response, _next: NextFunction) => res.json({ caught: error.message })) as unknown as RequestHandler;
    const router = express.Router();
    router.post('/', (_req, res) => res.json({ answered: 'by the router' }));
    // Without an error handler among them, and with one (passed over unless an error is pending).
    const plain = [mark('first'), byQuery, mark('third'), router];
    const withCatch = [mark('first'), byQuery, catching, mark('third'), router];
    app.use('/one', inSeries(...plain));
    app.use('/each', ...plain);
    app.use('/one-catching', inSeries(...withCatch));
    app.use('/each-catching', ...withCatch);
    app.use(['/one', '/each', '/one-catching', '/each-catching'], (_req, res) => res.json({ answered: 'past the mount' }));
    app.use((error: Error, _req: Request, res: Response, _next: NextFunction) => {
      res.status(500).json({ error: error.message });
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => new Promise((resolve) => server.close(() => resolve()));
  });
  afterAll(() => close());

  type Mount = 'one' | 'each' | 'one-catching' | 'each-catching';
  const call = async (mount: Mount, method: string, what: string) => {
    ran.length = 0;
    const response = await fetch(`${url}/${mount}?what=${what}`, { method });
    const text = await response.text();
    return {
      status: response.status,
      body: response.headers.get('content-type')?.startsWith('application/json') ? (JSON.parse(text) as unknown) : 'not json',
      ran: ran.map((line) => line.replace(/^(\S+) \/\S+ /, '$1 /mount ')),
    };
  };

  it('answers every case as the same handlers mounted side by side do', async () => {
    const cases = ['go', 'answer', 'pass', 'falsy', 'throw', 'reject', 'reject-falsy', 'thenable', 'route', 'router'];
    for (const [one, each] of [
      ['one', 'each'],
      ['one-catching', 'each-catching'],
    ] as const) {
      for (const method of ['POST', 'GET']) {
        for (const what of cases)
          expect({ one, method, what, ...(await call(one, method, what)) }).toEqual({ one, method, what, ...(await call(each, method, what)) });
      }
    }
  });

  it('runs each in order on next(), with the path trimmed as for a mount, and stops at the one that answers', async () => {
    expect(await call('one', 'POST', 'go')).toEqual({
      status: 200,
      body: { answered: 'by the router' },
      ran: ['first /mount /?what=go', 'third /mount /?what=go'],
    });
    expect(await call('one', 'POST', 'answer')).toEqual({ status: 200, body: { answered: 'by the second' }, ran: ['first /mount /?what=answer'] });
    expect(await call('one', 'GET', 'go')).toMatchObject({ body: { answered: 'past the mount' } });
  });

  it("hands an error passed to next, thrown or rejected to the next error handler among them, else to the app's, skipping the rest", async () => {
    for (const [what, error] of [
      ['pass', 'passed'],
      ['throw', 'thrown'],
      ['reject', 'rejected'],
      ['reject-falsy', 'Rejected promise'],
      ['thenable', 'thenable'],
    ] as const) {
      expect(await call('one', 'POST', what)).toEqual({ status: 500, body: { error }, ran: [`first /mount /?what=${what}`] });
      expect(await call('one-catching', 'POST', what)).toEqual({ status: 200, body: { caught: error }, ran: [`first /mount /?what=${what}`] });
    }
    // Passed over when no error is pending.
    expect(await call('one-catching', 'POST', 'go')).toMatchObject({
      body: { answered: 'by the router' },
      ran: ['first /mount /?what=go', 'third /mount /?what=go'],
    });
  });
});
