// The console's pages live in the URL's hash, so the server serves one page and links still work.

export type Route =
  | { readonly page: 'inbox' }
  | { readonly page: 'question'; readonly agentId: string; readonly taskId: string }
  | { readonly page: 'task'; readonly agentId: string; readonly taskId: string }
  | { readonly page: 'history'; readonly collection?: string; readonly version?: number }
  | { readonly page: 'entry'; readonly collection: string; readonly entry: string }
  | { readonly page: 'dashboard' }
  | { readonly page: 'send' };

const decode = (part: string | undefined): string => {
  try {
    return decodeURIComponent(part ?? '');
  } catch {
    return '';
  }
};

export function routeOf(hash: string): Route {
  const [page, first, second] = hash.replace(/^#\/?/, '').split('/');
  if ((page === 'questions' || page === 'tasks') && first && second) {
    return { page: page === 'questions' ? 'question' : 'task', agentId: decode(first), taskId: decode(second) };
  }
  if (page === 'history') {
    const version = Number(second);
    return { page: 'history', ...(first && { collection: decode(first) }), ...(Number.isInteger(version) && version > 0 && { version }) };
  }
  if (page === 'entries' && first && second) return { page: 'entry', collection: decode(first), entry: decode(second) };
  if (page === 'dashboard') return { page: 'dashboard' };
  if (page === 'send') return { page: 'send' };
  return { page: 'inbox' };
}

const e = encodeURIComponent;
export const questionHref = (agentId: string, taskId: string) => `#/questions/${e(agentId)}/${e(taskId)}`;
export const taskHref = (agentId: string, taskId: string) => `#/tasks/${e(agentId)}/${e(taskId)}`;
export const historyHref = (collection?: string, version?: number) =>
  collection === undefined ? '#/history' : `#/history/${e(collection)}${version === undefined ? '' : `/${version}`}`;
export const entryHref = (collection: string, entry: string) => `#/entries/${e(collection)}/${e(entry)}`;
