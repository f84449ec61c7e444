// `node --import register.mjs <package>/out/electron/start.js`: installs hooks.mjs for the launch.
import { register } from 'node:module';
import { pathToFileURL } from 'node:url';

register('./hooks.mjs', import.meta.url, {
  data: {
    standIn: new URL('./electron.mjs', import.meta.url).href,
    packageRoot: pathToFileURL(process.env.STAND_IN_PACKAGE_ROOT).href,
  },
});
