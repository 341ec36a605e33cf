/** Keys of the `state` table that several parts read or write. */

/** When the last complete poll of the loan request list ended (ISO); health and status read it. */
export const LAST_POLL_KEY = 'last_poll_at';

/**
 * The dashboard's address as people open it (ops.public_url, else the operator listener's own),
 * written by the running daemon when its listener starts and emptied when it stops: the links to
 * proposals in notifications and in agents' answers are made from it.
 */
export const DASHBOARD_URL_KEY = 'dashboard_url';

/**
 * The link to an agent's offer proposal on the dashboard, or undefined while no dashboard is
 * served: the page with a fragment (`/#proposal-12`), which the browser never sends, so opening
 * the link only shows the proposal; approving it takes the signed-in operator's click.
 */
export function proposalLink(state: { get(key: string): string | undefined }, id: number): string | undefined {
  const base = state.get(DASHBOARD_URL_KEY);
  if (base === undefined || base === '') return undefined;
  return `${base.replace(/\/+$/, '')}/#proposal-${id}`;
}
