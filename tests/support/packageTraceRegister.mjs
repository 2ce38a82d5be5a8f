// Registers packageTrace.mjs before the traced program starts (node --import this-file).
import { register } from 'node:module';

register(new URL('./packageTrace.mjs', import.meta.url));
