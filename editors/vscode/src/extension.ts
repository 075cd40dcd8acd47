// Starts `skillforge lsp` for the workspace and restarts it when its settings change.
import * as vscode from "vscode";
import { LanguageClient, type LanguageClientOptions, type ServerOptions } from "vscode-languageclient/node";
import { DOCUMENTS, launch } from "./settings";

let client: LanguageClient | undefined;

async function start(context: vscode.ExtensionContext): Promise<void> {
  const configuration = vscode.workspace.getConfiguration("skillforge");
  const settings = launch({ path: configuration.get("path"), profiles: configuration.get("profiles") });
  for (const problem of settings.problems) void vscode.window.showWarningMessage(`Skillforge: ${problem}`);
  const serverOptions: ServerOptions = { command: settings.command, args: settings.args };
  const clientOptions: LanguageClientOptions = {
    documentSelector: DOCUMENTS,
    initializationOptions: settings.initializationOptions,
    synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher("**/{SKILL.md,skillforge.toml}") },
  };
  client = new LanguageClient("skillforge", "Skillforge", serverOptions, clientOptions);
  context.subscriptions.push(client);
  try {
    await client.start();
  } catch (error) {
    void vscode.window.showErrorMessage(
      `Skillforge: could not start "${settings.command} lsp" (${String(error)}). ` +
        "Install it with `cargo install --locked --path crates/skillforge-cli` or set skillforge.path.",
    );
  }
}

async function restart(context: vscode.ExtensionContext): Promise<void> {
  await client?.stop();
  client = undefined;
  await start(context);
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  context.subscriptions.push(
    vscode.commands.registerCommand("skillforge.restart", () => restart(context)),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration("skillforge")) void restart(context);
    }),
  );
  await start(context);
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
