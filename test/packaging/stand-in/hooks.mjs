// Module hooks for the packaged-layout launch test: `electron` is the recording stand-in, and every
// other import must resolve to a Node built-in or to a file inside the package. Anything that would
// come from elsewhere (the checkout's node_modules, a global folder) fails the launch.
let standIn;
let packageRoot;

export function initialize(data) {
  standIn = data.standIn;
  packageRoot = data.packageRoot;
}

export async function resolve(specifier, context, next) {
  if (specifier === 'electron') return { url: standIn, shortCircuit: true };
  const resolved = await next(specifier, context);
  if (resolved.url.startsWith('node:') || resolved.url.startsWith(packageRoot)) return resolved;
  throw new Error(`${specifier} resolved outside the package, to ${resolved.url}`);
}
