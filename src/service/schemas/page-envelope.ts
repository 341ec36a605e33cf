// Marketplace 2.1: the pagination envelope. Items are validated one by one elsewhere, so that one bad
// item never hides the good ones; here `results` is only required to be an array.
import { z } from 'zod';

export const pageEnvelopeSchema = z.looseObject({
  count: z.number().int().min(0),
  next: z.string().nullable(),
  previous: z.string().nullable(),
  results: z.array(z.unknown()),
});
