// The SKILL.md frontmatter as a Markdown block with YAML inside, instead of a YAML-frontmatter language with
// Markdown nested in its body. Same highlighting; but in the nested form every keystroke re-parsed the whole
// body parsed so far (tens of milliseconds on a 300 KB file), while here the body is the outer Markdown parse,
// whose unchanged blocks are reused, and only the frontmatter is parsed again as YAML.
import { yamlLanguage } from "@codemirror/lang-yaml";
import { parseMixed } from "@lezer/common";
import { tags } from "@lezer/highlight";
import type { BlockContext, Element, Line, MarkdownConfig } from "@lezer/markdown";

/** The frontmatter's opening and closing line, as @codemirror/lang-yaml's yamlFrontmatter reads them. */
const DELIMITER = "---";

export const FRONTMATTER_NODES = {
  block: "Frontmatter",
  mark: "FrontmatterMark",
  content: "FrontmatterContent",
} as const;

/**
 * A frontmatter is a "---" line at the very start, up to the next "---" line; one that is never closed runs to
 * the end of the text (as with yamlFrontmatter, so the author sees that the body is not Markdown yet).
 */
function parseFrontmatter(cx: BlockContext, line: Line): boolean {
  if (cx.lineStart !== 0 || line.text !== DELIMITER) return false;
  const children: Element[] = [cx.elt(FRONTMATTER_NODES.mark, 0, DELIMITER.length)];
  let contentFrom = -1;
  while (cx.nextLine()) {
    if (contentFrom < 0) contentFrom = cx.lineStart;
    if (line.text === DELIMITER) {
      // The content ends before the line break that precedes the closing line.
      if (cx.lineStart > contentFrom) children.push(cx.elt(FRONTMATTER_NODES.content, contentFrom, cx.lineStart - 1));
      const end = cx.lineStart + DELIMITER.length;
      children.push(cx.elt(FRONTMATTER_NODES.mark, cx.lineStart, end));
      cx.nextLine();
      cx.addElement(cx.elt(FRONTMATTER_NODES.block, 0, end, children));
      return true;
    }
  }
  const end = cx.prevLineEnd();
  if (contentFrom >= 0 && end > contentFrom) children.push(cx.elt(FRONTMATTER_NODES.content, contentFrom, end));
  cx.addElement(cx.elt(FRONTMATTER_NODES.block, 0, end, children));
  return true;
}

/** A Markdown extension: the leading YAML frontmatter, parsed and highlighted as YAML. */
export const frontmatter: MarkdownConfig = {
  defineNodes: [
    { name: FRONTMATTER_NODES.block, block: true },
    { name: FRONTMATTER_NODES.mark, style: tags.meta },
    { name: FRONTMATTER_NODES.content },
  ],
  parseBlock: [{ name: FRONTMATTER_NODES.block, before: "HorizontalRule", parse: parseFrontmatter }],
  wrap: parseMixed((node) => (node.name === FRONTMATTER_NODES.content ? { parser: yamlLanguage.parser } : null)),
};
