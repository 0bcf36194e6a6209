/// <reference lib="dom" />
import { ApiFailure, postJson } from '../api.ts';
import { fill, h } from '../dom.ts';
import { errorNotice } from './notices.ts';

/** The minimal sign-in: a name, kept in a cookie and recorded on every lesson and rollback. */
export function signInPage(root: HTMLElement, signedIn: () => void): void {
  const name = h('input', { type: 'text', id: 'operator-name', name: 'name', autocomplete: 'name', required: true });
  const errors = h('div', { class: 'form-errors' });
  const form = h(
    'form',
    { class: 'card sign-in' },
    h('h1', { tabindex: -1 }, 'Who is answering?'),
    h('p', { class: 'lead' }, 'Your name is kept on this browser and recorded with every answer, lesson and rollback you make.'),
    errors,
    h('div', { class: 'field' }, h('label', { for: 'operator-name' }, 'Your name'), name),
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, 'Sign in')),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void postJson('/session', { name: name.value })
      .then(signedIn)
      .catch((error: unknown) => errors.replaceChildren(errorNotice(error instanceof ApiFailure ? error.message : String(error))));
  });
  fill(root, h('main', { class: 'sign-in-main' }, h('p', { class: 'brand' }, 'Learnables console'), form));
  name.focus();
}
