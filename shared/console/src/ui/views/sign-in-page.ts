/// <reference lib="dom" />
import { ApiFailure, postJson } from '../api.ts';
import { fill, h } from '../dom.ts';
import { errorNotice, warningNotice } from './notices.ts';

/**
 * Sign in with an account of the console's users file. `ended` says why the operator is back here
 * (a session that expired or was signed out elsewhere), so the page does not look like a fault.
 */
export function signInPage(root: HTMLElement, signedIn: () => void, ended?: string): void {
  const name = h('input', {
    type: 'text',
    id: 'operator-name',
    name: 'username',
    autocomplete: 'username',
    autocapitalize: 'none',
    spellcheck: 'false',
    required: true,
  });
  const password = h('input', { type: 'password', id: 'operator-password', name: 'password', autocomplete: 'current-password', required: true });
  const errors = h('div', { class: 'form-errors' });
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Sign in');
  const form = h(
    'form',
    { class: 'card sign-in', novalidate: true },
    h('h1', { tabindex: -1 }, 'Sign in'),
    h('p', { class: 'lead' }, 'Every answer, lesson and rollback you make is recorded under your name.'),
    ended && warningNotice(ended),
    errors,
    h('div', { class: 'field' }, h('label', { for: 'operator-name' }, 'Your name'), name),
    h('div', { class: 'field' }, h('label', { for: 'operator-password' }, 'Password'), password),
    h('div', { class: 'actions' }, submit),
    h('p', { class: 'help' }, 'No account, or forgot your password? Ask whoever runs this console.'),
  );
  const problem = (message: string, field?: HTMLInputElement) => {
    errors.replaceChildren(errorNotice(message));
    for (const input of [name, password]) {
      if (input === field) input.setAttribute('aria-invalid', 'true');
      else input.removeAttribute('aria-invalid');
    }
    field?.focus();
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (name.value.trim() === '') return problem('Type your name to sign in.', name);
    if (password.value === '') return problem('Type your password to sign in.', password);
    submit.disabled = true;
    // Signing in takes seconds under load (the password hash is slow on purpose): say it is under way.
    submit.textContent = 'Signing in…';
    errors.replaceChildren(h('p', { class: 'muted', role: 'status' }, 'Signing in…'));
    void postJson('/session', { name: name.value, password: password.value })
      .then(signedIn)
      .catch((error: unknown) => {
        submit.disabled = false;
        submit.textContent = 'Sign in';
        if (!(error instanceof ApiFailure)) return problem(String(error));
        // A wrong password is typed again; the name usually stays right.
        if (error.body.error === 'wrong-password') password.value = '';
        problem(error.message, error.body.field === 'name' ? name : password);
      });
  });
  fill(root, h('main', { class: 'sign-in-main' }, h('p', { class: 'brand' }, 'Learnables console'), form));
  name.focus();
}
