// The ptxopt extension: starts `ptxopt lsp` over stdio for PTX files and
// passes the `ptxopt.*` settings to it (as initializationOptions and on every
// change, through workspace/didChangeConfiguration).

import * as vscode from "vscode";
import {
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  TransportKind,
} from "vscode-languageclient/node";

let client: LanguageClient | undefined;

/** The settings object the server reads: `{ target, knobs }`. */
function serverSettings(): { target: string | null; knobs: Record<string, unknown> } {
  const config = vscode.workspace.getConfiguration("ptxopt");
  const target = config.get<string | null>("target", null);
  return {
    target: target && target.length > 0 ? target : null,
    knobs: config.get<Record<string, unknown>>("knobs", {}),
  };
}

function serverPath(): string {
  const path = vscode.workspace.getConfiguration("ptxopt").get<string>("serverPath", "ptxopt");
  return path && path.length > 0 ? path : "ptxopt";
}

function createClient(output: vscode.OutputChannel): LanguageClient {
  const command = serverPath();
  const serverOptions: ServerOptions = {
    run: { command, args: ["lsp"], transport: TransportKind.stdio },
    debug: { command, args: ["lsp"], transport: TransportKind.stdio },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: "file", language: "ptx" },
      { scheme: "untitled", language: "ptx" },
    ],
    initializationOptions: serverSettings(),
    outputChannel: output,
  };
  return new LanguageClient("ptxopt", "ptxopt", serverOptions, clientOptions);
}

async function start(output: vscode.OutputChannel): Promise<void> {
  client = createClient(output);
  try {
    await client.start();
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    void vscode.window.showErrorMessage(
      `ptxopt: could not start \`${serverPath()} lsp\` (${message}). ` +
        "Install ptxopt or set `ptxopt.serverPath`.",
    );
  }
}

async function stop(): Promise<void> {
  const c = client;
  client = undefined;
  if (c && c.isRunning()) {
    await c.stop();
  }
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel("ptxopt");
  context.subscriptions.push(output);

  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (!event.affectsConfiguration("ptxopt")) {
        return;
      }
      if (event.affectsConfiguration("ptxopt.serverPath")) {
        await stop();
        await start(output);
        return;
      }
      if (client && client.isRunning()) {
        await client.sendNotification("workspace/didChangeConfiguration", {
          settings: { ptxopt: serverSettings() },
        });
      }
    }),
    vscode.commands.registerCommand("ptxopt.restartServer", async () => {
      await stop();
      await start(output);
    }),
  );

  await start(output);
}

export async function deactivate(): Promise<void> {
  await stop();
}
