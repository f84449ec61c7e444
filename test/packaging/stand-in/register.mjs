// `node --import register.mjs <package>/out/electron/start.js`: installs hooks.mjs for the launch.
import module, { register } from 'node:module';
import { pathToFileURL } from 'node:url';

register('./hooks.mjs', import.meta.url, {
  data: {
    standIn: new URL('./electron.mjs', import.meta.url).href,
    packageRoot: pathToFileURL(process.env.STAND_IN_PACKAGE_ROOT).href,
  },
});

// `require('electron')` (electron-updater is CommonJS, bundled behind a createRequire) does not go
// through the hooks above: these synchronous ones serve it the same stand-in.
const standIn = new URL('./electron.mjs', import.meta.url).href;
module.registerHooks?.({
  resolve: (specifier, context, next) =>
    specifier === 'electron' ? { url: standIn, shortCircuit: true } : next(specifier, context),
});
