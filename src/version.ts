// The package version, read once from package.json so `--version` and the User-Agent agree.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const pkg = require('../package.json') as { version: string };

export const LENDBOT_VERSION: string = pkg.version;
