/** The items of a comma-separated option (`--strategy a.yaml,b.yaml`), trimmed, empty ones dropped. */
export function commaList(text: string): string[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}
