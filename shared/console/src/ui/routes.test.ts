import { describe, expect, it } from 'vitest';
import { entryHref, historyHref, questionHref, routeOf } from './routes.ts';

describe('routes live in the hash', () => {
  it('reads every page back from the links it makes', () => {
    expect(routeOf(questionHref('127-0-0-1-4201', 'a/b c'))).toEqual({ page: 'question', agentId: '127-0-0-1-4201', taskId: 'a/b c' });
    expect(routeOf(historyHref('lists', 3))).toEqual({ page: 'history', collection: 'lists', version: 3 });
    expect(routeOf(historyHref())).toEqual({ page: 'history' });
    expect(routeOf('#/dashboard')).toEqual({ page: 'dashboard' });
    expect(routeOf(entryHref('lists', 'alpha beta/x'))).toEqual({ page: 'entry', collection: 'lists', entry: 'alpha beta/x' });
    expect(routeOf('')).toEqual({ page: 'inbox' });
    expect(routeOf('#/nowhere/at/all')).toEqual({ page: 'inbox' });
  });
});
