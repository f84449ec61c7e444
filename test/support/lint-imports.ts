// The project's ESLint config run on one import, as if written in a file of a given folder: for
// tests that prove an import rule of eslint.config.js fires (and that an allowed import passes).
import { ESLint } from 'eslint';

let eslint: ESLint | undefined;

/** The no-restricted-imports messages for `import { value } from '<from>'` written in `filePath`. */
export async function importErrors(filePath: string, from: string): Promise<string[]> {
  eslint ??= new ESLint({ overrideConfigFile: 'eslint.config.js' });
  const [result] = await eslint.lintText(`import { value } from '${from}';\nexport const used = value;\n`, {
    filePath,
  });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === 'no-restricted-imports')
    .map((message) => message.message);
}
