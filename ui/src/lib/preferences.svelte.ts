// The window's remembered settings (theme, welcome dismissed), read from and saved through the backend.
import type { Backend, ThemeChoice, UiPreferences } from "./backend";
import { settle } from "./catalog";
import { applyTheme, resolveTheme, type Theme } from "./theme";

const DARK_QUERY = "(prefers-color-scheme: dark)";

export class PreferencesStore {
  theme: ThemeChoice = $state("system");
  welcomeDismissed = $state(true);
  /** The system's setting now (it may change while the window is open). */
  systemDark = $state(false);
  /** Why the settings are not remembered, when they are not. */
  problem: string | null = $state(null);
  loaded = $state(false);
  readonly shown: Theme = $derived(resolveTheme(this.theme, this.systemDark));

  readonly #backend: Pick<Backend, "uiPreferences" | "saveUiPreferences">;

  constructor(backend: Pick<Backend, "uiPreferences" | "saveUiPreferences">) {
    this.#backend = backend;
  }

  /** Reads the settings and follows the system's colour scheme; returns a function that stops following it. */
  async start(): Promise<() => void> {
    const media = typeof window !== "undefined" && window.matchMedia ? window.matchMedia(DARK_QUERY) : null;
    const follow = () => (this.systemDark = media?.matches ?? false);
    follow();
    media?.addEventListener("change", follow);
    const read = await settle(() => this.#backend.uiPreferences());
    if (read.status === "ok") {
      this.theme = read.data.preferences.theme ?? "system";
      this.welcomeDismissed = read.data.preferences.welcome_dismissed ?? false;
      this.problem = read.data.problem;
    } else {
      this.welcomeDismissed = false;
      this.problem = read.error.message;
    }
    this.loaded = true;
    return () => media?.removeEventListener("change", follow);
  }

  apply(root?: HTMLElement): void {
    applyTheme(this.shown, root);
  }

  async setTheme(choice: ThemeChoice): Promise<void> {
    this.theme = choice;
    await this.#save();
  }

  async dismissWelcome(): Promise<void> {
    this.welcomeDismissed = true;
    await this.#save();
  }

  async #save(): Promise<void> {
    const chosen: UiPreferences = { theme: this.theme, welcome_dismissed: this.welcomeDismissed };
    const saved = await settle(() => this.#backend.saveUiPreferences(chosen));
    this.problem = saved.status === "ok" ? saved.data.problem : saved.error.message;
  }
}
