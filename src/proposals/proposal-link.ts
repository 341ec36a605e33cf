/**
 * Where a person approves a proposal: the dashboard's link (made in the store, from the address
 * the running daemon recorded, so a notification sent by any process on the database links to
 * it) and the command for the daemon's machine.
 */
export { proposalLink } from '../store/index.js';

/** The command a person runs on the daemon's machine to approve it. */
export function approveCommand(id: number): string {
  return `lendbot approve ${id}`;
}
