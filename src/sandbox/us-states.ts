/**
 * US states for the `state` filter (code or full name, any case) and the borrowers' addresses.
 * Each state carries one three-digit zip prefix the generator draws zip codes from.
 */
export interface UsState {
  code: string;
  name: string;
  zipPrefix: string;
}

export const US_STATES: readonly UsState[] = [
  ['AL', 'Alabama', '350'],
  ['AK', 'Alaska', '995'],
  ['AZ', 'Arizona', '850'],
  ['AR', 'Arkansas', '720'],
  ['CA', 'California', '941'],
  ['CO', 'Colorado', '802'],
  ['CT', 'Connecticut', '061'],
  ['DE', 'Delaware', '197'],
  ['DC', 'District of Columbia', '200'],
  ['FL', 'Florida', '331'],
  ['GA', 'Georgia', '303'],
  ['HI', 'Hawaii', '968'],
  ['ID', 'Idaho', '837'],
  ['IL', 'Illinois', '606'],
  ['IN', 'Indiana', '462'],
  ['IA', 'Iowa', '503'],
  ['KS', 'Kansas', '662'],
  ['KY', 'Kentucky', '402'],
  ['LA', 'Louisiana', '701'],
  ['ME', 'Maine', '041'],
  ['MD', 'Maryland', '212'],
  ['MA', 'Massachusetts', '021'],
  ['MI', 'Michigan', '482'],
  ['MN', 'Minnesota', '554'],
  ['MS', 'Mississippi', '392'],
  ['MO', 'Missouri', '631'],
  ['MT', 'Montana', '591'],
  ['NE', 'Nebraska', '681'],
  ['NV', 'Nevada', '891'],
  ['NH', 'New Hampshire', '031'],
  ['NJ', 'New Jersey', '071'],
  ['NM', 'New Mexico', '871'],
  ['NY', 'New York', '100'],
  ['NC', 'North Carolina', '276'],
  ['ND', 'North Dakota', '581'],
  ['OH', 'Ohio', '432'],
  ['OK', 'Oklahoma', '731'],
  ['OR', 'Oregon', '972'],
  ['PA', 'Pennsylvania', '191'],
  ['RI', 'Rhode Island', '029'],
  ['SC', 'South Carolina', '292'],
  ['SD', 'South Dakota', '571'],
  ['TN', 'Tennessee', '372'],
  ['TX', 'Texas', '787'],
  ['UT', 'Utah', '841'],
  ['VT', 'Vermont', '054'],
  ['VA', 'Virginia', '232'],
  ['WA', 'Washington', '981'],
  ['WV', 'West Virginia', '253'],
  ['WI', 'Wisconsin', '532'],
  ['WY', 'Wyoming', '820'],
].map(([code, name, zipPrefix]) => ({ code: code ?? '', name: name ?? '', zipPrefix: zipPrefix ?? '' }));

/** The two-letter code for a code or full name in any case, or undefined when unknown. */
export function stateCode(text: string): string | undefined {
  const wanted = text.trim().toLowerCase();
  return US_STATES.find((state) => state.code.toLowerCase() === wanted || state.name.toLowerCase() === wanted)?.code;
}

/** Whether two zip codes count as nearby: the same three-digit prefix (one sectional center). */
export function zipsAreNearby(a: string, b: string): boolean {
  return a.slice(0, 3) === b.slice(0, 3);
}
