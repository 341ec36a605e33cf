// The operator API as the dashboard calls it (docs/operator-api.md). The session is the
// HttpOnly cookie the server sets at sign-in: the page never holds the token after sending it
// once, never puts it in a URL, and never stores it.

/** A refusal of the API: the HTTP status and the server's one line. */
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function answer(response) {
  if (response.status === 204) return null;
  const text = await response.text();
  let body = null;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    // Not JSON (a proxy's error page): the status says enough.
  }
  if (!response.ok) throw new ApiError(response.status, (body && body.error) || `${response.status} ${response.statusText}`);
  return body;
}

/** GET a JSON answer; `query` values that are empty strings or null are left out. */
export async function getJson(path, query = {}) {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query))
    if (value !== '' && value !== null && value !== undefined) params.set(name, String(value));
  const search = params.toString();
  return answer(await fetch(search === '' ? path : `${path}?${search}`, { headers: { accept: 'application/json' }, cache: 'no-store' }));
}

/** A change (POST/DELETE): always a JSON body, which a form of another site cannot send. */
export async function change(method, path, body = {}) {
  return answer(
    await fetch(path, { method, headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) }),
  );
}
