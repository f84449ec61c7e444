// The version in package.json, put in by the build (scripts/build.mjs) and by Vitest's config.
declare const APP_VERSION: string;
