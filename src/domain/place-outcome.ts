/**
 * What became of an offer sent: the daemon's offer placer (src/daemon/offer-placer.ts) answers
 * with it, and the pipeline, the decisions table and the agent connector's offer tool read it.
 * Here so the operator folder names the one type instead of keeping a copy.
 */
export type PlaceOutcome =
  | { kind: 'placed'; serviceOfferId: number | null }
  /** `serviceText`: the service's own words, for the protections that recognise account refusals. */
  | { kind: 'refused'; text: string; serviceText?: string | undefined }
  | { kind: 'unknown'; text: string }
  | { kind: 'exists'; state: string };
