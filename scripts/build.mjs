// `npm run build`: the contract, the server and the web app, whatever their state.
import { build } from './lib.mjs';

build({ force: true });
