// `roundtable view`: the room viewer (@orphus/roundtable-viewer) on 127.0.0.1, fed by one broker watch (the watcher
// is no member of anything), until Ctrl-C. Its URL, token included, is printed; --open hands it to the system's
// browser through the opener the io gives (the bin's default runs xdg-open, open or start).
import { spawn } from "node:child_process";
import {
  createRoundtableClient,
  watchBroker,
  type CreateRoundtableClientOptions,
  type RoundtableClient,
  type WatchBrokerOptions,
} from "@orphus/roundtable-client";
import { startViewer, type BrokerWatch, type Viewer } from "@orphus/roundtable-viewer";
import type { ViewArguments } from "./arguments.js";
import { CLI_EXIT } from "./usage.js";

/** What `roundtable view` is given besides its arguments; injected so tests run it in-process. */
export interface ViewIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  readonly env?: NodeJS.ProcessEnv;
  /** Aborting stops the viewer and ends the command with exit code 0. */
  readonly signal?: AbortSignal;
  readonly clientOptions?: CreateRoundtableClientOptions;
  /** Opens the broker watch (default: the client's watchBroker, which starts a broker when none runs). */
  readonly openWatch?: (options: WatchBrokerOptions) => Promise<BrokerWatch>;
  /** Opens a URL in a browser (default: the platform's opener, detached). */
  readonly openUrl?: (url: string) => void;
  readonly describe: (error: unknown) => string;
}

/** The platform's command that opens a URL in the user's browser. */
export function browserCommand(url: string, platform: NodeJS.Platform = process.platform): [string, string[]] {
  if (platform === "darwin") return ["open", [url]];
  if (platform === "win32") return ["cmd", ["/c", "start", '""', url.replaceAll("&", "^&")]];
  return ["xdg-open", [url]];
}

function openInBrowser(url: string): void {
  const [command, args] = browserCommand(url);
  const child = spawn(command, args, { detached: true, stdio: "ignore" });
  child.on("error", () => undefined);
  child.unref();
}

function stopped(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal === undefined) return;
    if (signal.aborted) resolve();
    else signal.addEventListener("abort", () => resolve(), { once: true });
  });
}

export async function runView(args: ViewArguments, io: ViewIo): Promise<number> {
  const { port, open, postAs } = args.action;
  const options: CreateRoundtableClientOptions = {
    ...io.clientOptions,
    ...(io.env === undefined ? {} : { env: io.env }),
    ...(args.agentDir === undefined ? {} : { agentDir: args.agentDir, agentDirSetting: "--agent-dir" }),
    onWarning: () => undefined,
  };
  let poster: RoundtableClient | undefined;
  let viewer: Viewer | undefined;
  try {
    // The watch finds and starts the broker as the client would, from the same settings.
    const { agentDir, env, store, brokerCommand, brokerIdleMs, brokerLogPath, startTimeoutMs } = options;
    const where = { agentDir, env, store, brokerCommand, brokerIdleMs, brokerLogPath, startTimeoutMs };
    const watchOptions = Object.fromEntries(
      Object.entries(where).filter(([, value]) => value !== undefined),
    ) as WatchBrokerOptions;
    const openWatch = io.openWatch ?? watchBroker;
    if (postAs !== undefined) poster = createRoundtableClient({ ...options, role: postAs, spawnBroker: true });
    viewer = await startViewer({
      watch: () => openWatch(watchOptions),
      port,
      ...(poster === undefined ? {} : { poster }),
    });
    io.stdout.write(
      `roundtable view: ${viewer.url}\n` +
        `Serving on 127.0.0.1 only; the token in the URL is needed on every request. ` +
        `${postAs === undefined ? "Read only" : `The page posts as ${postAs}`}. Ctrl-C stops it.\n`,
    );
    if (open) {
      try {
        (io.openUrl ?? openInBrowser)(viewer.url);
      } catch (error) {
        io.stderr.write(`roundtable view: could not open a browser (${io.describe(error)}); open the URL above\n`);
      }
    }
    await stopped(io.signal);
    return CLI_EXIT.ok;
  } catch (error) {
    io.stderr.write(`roundtable view: ${io.describe(error)}\n`);
    return CLI_EXIT.failed;
  } finally {
    await viewer?.close();
    poster?.close();
  }
}
