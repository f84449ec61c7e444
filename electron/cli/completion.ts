// Shell completion, made from the one commander tree (routes.ts), so a command or option added
// there is completed without a word here. Names only the data folder knows — profiles, and the
// agents of the active profile — the scripts ask the CLI for (`agent-console __complete …`), which
// reads them through the same core and rate limiter as every command, and says nothing on failure
// (docs/architecture.md, electron/cli/).
import type { Command, Option } from 'commander';
import { findRunningEndpoint } from '../../mock/endpoint-file';
import { mockDataDir } from '../core/paths';
import { EMBEDDED_MOCK_PROFILE_NAME } from '../core/profiles';
import type { CommandContext } from './cli-session';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** What a value is, by the name it has in the tree (`--agent <slug>`, `<profile>`, `<files...>`). */
type ValueKind = 'profiles' | 'agents' | 'files' | 'dirs' | 'none' | readonly string[];

const KIND_BY_NAME: Readonly<Record<string, ValueKind>> = {
  profile: 'profiles',
  slug: 'agents',
  agent: 'agents',
  file: 'files',
  files: 'files',
  dir: 'dirs',
};

function optionKind(option: Option): ValueKind {
  if (option.argChoices) return option.argChoices;
  const name = /<([^>]+)>/.exec(option.flags)?.[1] ?? '';
  return KIND_BY_NAME[name] ?? 'none';
}

interface Node {
  /** The words after the program's name: '' for the program, 'keys add' for a subcommand. */
  path: string;
  subcommands: string[];
  /** The command's own options and the global ones. */
  flags: string[];
  /** What each operand position takes; the last repeats when it is variadic. */
  operands: ValueKind[];
  variadic: boolean;
}

interface Tree {
  nodes: Node[];
  /** Every option that takes a value, anywhere, with what its value is. */
  valueOptions: Map<string, ValueKind>;
}

function treeOf(program: Command): Tree {
  const globals = program.options.map((o) => o.long).filter((f): f is string => f !== undefined);
  const nodes: Node[] = [];
  const valueOptions = new Map<string, ValueKind>();
  const visit = (command: Command, path: string): void => {
    const visible = command.commands.filter((c) => !(c as Command & { _hidden?: boolean })._hidden);
    for (const option of command.options) {
      if (option.long && (option.required || option.optional) && !valueOptions.has(option.long))
        valueOptions.set(option.long, optionKind(option));
    }
    const own = command.options.map((o) => o.long).filter((f): f is string => f !== undefined);
    const args = command.registeredArguments;
    nodes.push({
      path,
      subcommands: visible.map((c) => c.name()),
      flags: [...new Set([...own, ...globals, '--help'])],
      operands: args.map((a) => a.argChoices ?? KIND_BY_NAME[a.name()] ?? 'none'),
      variadic: args.at(-1)?.variadic ?? false,
    });
    for (const sub of visible) visit(sub, path ? `${path} ${sub.name()}` : sub.name());
  };
  visit(program, '');
  return { nodes, valueOptions };
}

const quoted = (text: string): string => `'${text.replaceAll("'", "'\\''")}'`;

/** Bash: the words to offer for a value of `kind`, into COMPREPLY. */
function bashValues(kind: ValueKind): string {
  if (Array.isArray(kind)) return `COMPREPLY=($(compgen -W ${quoted(kind.join(' '))} -- "$cur"))`;
  switch (kind) {
    case 'profiles':
    case 'agents':
      return `_agent_console_names ${kind}`;
    case 'files':
      return 'COMPREPLY=($(compgen -f -- "$cur"))';
    case 'dirs':
      return 'COMPREPLY=($(compgen -d -- "$cur"))';
    default:
      return 'COMPREPLY=()';
  }
}

function bashScript(tree: Tree): string {
  const valueFlags = [...tree.valueOptions.keys()];
  const paths = tree.nodes.filter((n) => n.path).map((n) => `${quoted(` ${n.path}`)}`);
  const byFlag = [...tree.valueOptions].map(([flag, kind]) => `    ${flag}) ${bashValues(kind)}; return ;;`);
  const byPath = tree.nodes.flatMap((node) => {
    const key = ` ${node.path}`.trimEnd();
    const words = quoted([...node.subcommands, ...node.flags].join(' '));
    const operand = (kind: ValueKind): string =>
      `${kind === 'none' ? 'COMPREPLY=()' : bashValues(kind)}; COMPREPLY+=($(compgen -W ${words} -- "$cur")); return ;;`;
    return [
      ...node.operands.map((kind, i) => `    ${quoted(`${key}:${i}`)}) ${operand(kind)}`),
      ...(node.variadic ? [`    ${quoted(`${key}:`)}*) ${operand(node.operands.at(-1) ?? 'none')}`] : []),
      `    ${quoted(`${key}:`)}*) COMPREPLY=($(compgen -W ${words} -- "$cur")); return ;;`,
    ];
  });
  return `# agent-console completion for bash, made by \`agent-console completion bash\` from the CLI's own
# command tree. Load it with: eval "$(agent-console completion bash)"
_agent_console_names() {
  local IFS=$'\\n' name plain="\${cur//\\\\/}"
  for name in $("\${COMP_WORDS[0]}" "\${_agent_console_globals[@]}" __complete "$1" 2>/dev/null); do
    [[ "$name" == "$plain"* ]] && COMPREPLY+=("$(printf '%q' "$name")")
  done
}
_agent_console() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="" at="" word i operands=0
  _agent_console_globals=()
  (( COMP_CWORD > 0 )) && prev="\${COMP_WORDS[COMP_CWORD-1]}"
  COMPREPLY=()
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    case "$word" in
      --profile|--data-dir) _agent_console_globals+=("$word" "\${COMP_WORDS[i+1]}"); ((i++)) ;;
      ${valueFlags.join('|')}) ((i++)) ;;
      -*) ;;
      *)
        case "$at $word" in
          ${paths.join('|')}) at="$at $word"; operands=0 ;;
          *) ((operands++)) ;;
        esac ;;
    esac
  done
  case "$prev" in
${byFlag.join('\n')}
  esac
  case "$at:$operands" in
${byPath.join('\n')}
  esac
}
complete -F _agent_console agent-console
`;
}

/** zsh runs the bash script through its bash-completion layer (bashcompinit). The script names no
 * variable `path`: zsh ties that one to PATH. */
function zshScript(tree: Tree): string {
  return `#compdef agent-console
# agent-console completion for zsh. Load it with: eval "$(agent-console completion zsh)"
autoload -U +X compinit && { (( $+functions[compdef] )) || compinit }
autoload -U +X bashcompinit && bashcompinit
${bashScript(tree)}`;
}

function fishValues(kind: ValueKind): string {
  if (Array.isArray(kind)) return `-f -a ${quoted(kind.join(' '))}`;
  switch (kind) {
    case 'profiles':
    case 'agents':
      return `-f -a '(__agent_console_names ${kind})'`;
    case 'files':
      return '-F';
    case 'dirs':
      return "-f -a '(__fish_complete_directories)'";
    default:
      return '-f';
  }
}

function fishScript(tree: Tree): string {
  const valueFlags = [...tree.valueOptions.keys()].join(' ');
  const lines: string[] = [];
  for (const node of tree.nodes) {
    const at = `-n ${quoted(`test (__agent_console_path) = ${quoted(node.path)}`)}`;
    if (node.subcommands.length > 0)
      lines.push(`complete -c agent-console ${at} -f -a ${quoted(node.subcommands.join(' '))}`);
    const first = node.operands[0];
    if (first !== undefined && first !== 'none')
      lines.push(`complete -c agent-console ${at} ${fishValues(first)}`);
    for (const flag of node.flags) {
      const kind = tree.valueOptions.get(flag);
      const name = flag.slice(2);
      lines.push(
        `complete -c agent-console ${at} -l ${name}${kind !== undefined ? ` -r ${fishValues(kind)}` : ''}`,
      );
    }
  }
  const paths = tree.nodes.filter((n) => n.path).map((n) => quoted(n.path));
  return `# agent-console completion for fish, made by \`agent-console completion fish\` from the CLI's own
# command tree. Load it with: agent-console completion fish | source
function __agent_console_path
    set -l tokens (commandline -opc)
    set -l path ''
    set -l skip 0
    for word in $tokens[2..-1]
        if test $skip = 1
            set skip 0
            continue
        end
        if contains -- $word ${valueFlags}
            set skip 1
        else if string match -q -- '-*' $word
            continue
        else if contains -- (string trim -- "$path $word") ${paths.join(' ')}
            set path (string trim -- "$path $word")
        end
    end
    echo $path
end
function __agent_console_names
    set -l tokens (commandline -opc)
    set -l globals
    for i in (seq 2 (count $tokens))
        if contains -- $tokens[$i] --profile --data-dir; and test $i -lt (count $tokens)
            set -a globals $tokens[$i] $tokens[(math $i + 1)]
        end
    end
    $tokens[1] $globals __complete $argv[1] 2>/dev/null
end
complete -c agent-console -f
${lines.join('\n')}
`;
}

export function completionScript(program: Command, shell: Shell): string {
  const tree = treeOf(program);
  if (shell === 'fish') return fishScript(tree);
  return shell === 'zsh' ? zshScript(tree) : bashScript(tree);
}

/** `__complete profiles|agents`: one name a line, nothing (and exit 0) when they cannot be had. */
export async function completeValues(context: CommandContext, what: 'profiles' | 'agents'): Promise<void> {
  try {
    if (what === 'profiles') {
      // The built-in profile is there whether or not a mock runs; none is started to list it.
      const core = await context.openCore({ embeddedMock: 'none' });
      const names = [EMBEDDED_MOCK_PROFILE_NAME, ...core.profiles.list().map((p) => p.name)];
      context.io.out([...new Set(names)].join('\n'));
      return;
    }
    // A mock that runs already answers; none is started for a key press.
    const running = findRunningEndpoint(mockDataDir(context.globals.dataDir)) !== undefined;
    const core = await context.openCore({ embeddedMock: running ? 'discover' : 'none' });
    const signal = AbortSignal.any([context.io.signal, AbortSignal.timeout(3_000)]);
    const profile = core.profile(context.globals.profile);
    const { agents } = await core.client(profile).listAgents({ limit: 100 }, { signal });
    context.io.out(agents.map((a) => a.slug).join('\n'));
  } catch {
    // A completion that cannot be had offers nothing; the shell goes on.
  }
}
