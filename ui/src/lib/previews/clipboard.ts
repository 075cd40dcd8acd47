// Copies text exactly. The asynchronous Clipboard API is tried first; where the webview refuses it, a selected
// read-only textarea and the copy command (which runs inside the click that asked for it) do the same.

/** "copied" through the Clipboard API, "copied-by-selection" through the copy command, or "refused". */
export type CopyOutcome = "copied" | "copied-by-selection" | "refused";

export async function copyExactly(text: string, doc: Document = document): Promise<CopyOutcome> {
  try {
    if (typeof navigator !== "undefined" && navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return "copied";
    }
  } catch {
    // Fall through to the selection copy.
  }
  const area = doc.createElement("textarea");
  area.value = text;
  area.readOnly = true;
  area.setAttribute("aria-hidden", "true");
  area.style.position = "fixed";
  area.style.opacity = "0";
  doc.body.appendChild(area);
  try {
    area.select();
    // A textarea's value has its line breaks normalized to LF; only use it when that changes nothing.
    if (area.value !== text) return "refused";
    return doc.execCommand?.("copy") ? "copied-by-selection" : "refused";
  } catch {
    return "refused";
  } finally {
    area.remove();
  }
}
