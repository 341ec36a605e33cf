/**
 * The link to a proposal on the dashboard: the page with a fragment (`/#proposal-12`), which the
 * browser never sends, so opening the link only shows the proposal; approving takes the
 * signed-in operator's click. Made from the address the running daemon recorded
 * (DASHBOARD_URL_KEY), so a notification sent by any process on the database links to it.
 */
import { DASHBOARD_URL_KEY, type StateRepository } from '../../store/index.js';

export function proposalLink(state: Pick<StateRepository, 'get'>, id: number): string | undefined {
  const base = state.get(DASHBOARD_URL_KEY);
  if (base === undefined || base === '') return undefined;
  return `${base.replace(/\/+$/, '')}/#proposal-${id}`;
}

/** The command a person runs on the daemon's machine to approve it. */
export function approveCommand(id: number): string {
  return `lendbot approve ${id}`;
}
