// `npm run build`: the contract, the server, the web app and the operator console, whatever their state.
import { build } from './lib.mjs';

build({ force: true });
