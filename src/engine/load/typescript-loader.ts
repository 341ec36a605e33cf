/**
 * Strategy plugins may be written in TypeScript. Run from the sources, lendbot already runs under
 * tsx's loader; compiled (dist/, the container) it does not, so tsx's loader is registered the
 * first time a TypeScript plugin is loaded, not up front (that would cost every command about
 * 0.2 s and 35 MB).
 */
let registered: Promise<void> | undefined;

export function ensureTypeScriptLoader(): Promise<void> {
  if (import.meta.url.endsWith('.ts')) return Promise.resolve();
  registered ??= import('tsx/esm/api').then((tsx) => {
    tsx.register();
  });
  return registered;
}
