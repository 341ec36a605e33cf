// Signing in and out, and what the caller may do (GET /api/me). The token typed in the box goes
// once to POST /api/session and is cleared from the box; the server answers with an HttpOnly
// cookie the page cannot read, so the token is never kept by the page, a URL or storage.
import { ApiError, change, getJson } from './api.js';
import { byTestId } from './dom.js';

/** @typedef {{ signedIn: boolean, name: string | null, canRead: boolean, canChange: boolean }} Me */

export function createSession(onChange) {
  const form = byTestId('sign-in-form');
  const input = byTestId('token-input');
  const error = byTestId('sign-in-error');
  const signedIn = byTestId('signed-in');
  /** @type {Me} */
  let me = { signedIn: false, name: null, canRead: false, canChange: false };

  const show = () => {
    form.hidden = me.signedIn;
    signedIn.hidden = !me.signedIn;
    byTestId('signed-in-name').textContent = me.name ?? '';
    byTestId('read-only-banner').hidden = me.signedIn || !me.canRead;
    byTestId('no-access-banner').hidden = me.canRead;
  };

  const refresh = async () => {
    me = await getJson('/api/me');
    show();
    onChange(me);
    return me;
  };

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const token = input.value.trim();
    input.value = '';
    error.hidden = true;
    if (token === '') return;
    try {
      await change('POST', '/api/session', { token });
      await refresh();
    } catch (e) {
      error.textContent = e instanceof ApiError && e.status === 401 ? 'That token is not right.' : `Could not sign in: ${e.message}`;
      error.hidden = false;
    }
  });

  byTestId('sign-out-button').addEventListener('click', async () => {
    try {
      await change('DELETE', '/api/session');
    } finally {
      await refresh();
    }
  });

  return { refresh, current: () => me };
}
