use crate::frontmatter::yaml::double_quoted;
use crate::frontmatter::yaml::Style;
use crate::lint::{Applicability, Finding, SkillContext, TextEdit};

crate::declare_rule! {
    /// ## What it does
    /// Flags a `description` written as a block scalar (`|`, `>`, `>-`).
    ///
    /// ## Why it matters
    /// nagents reads frontmatter line by line without YAML and refuses the skill: `use one single-line
    /// description value`. Hand-rolled parsers in other tools read `>-` as the description.
    ///
    /// ## Example
    /// ```yaml
    /// description: >-
    ///   Extract text from PDFs.
    ///   Use when the user mentions PDFs.
    /// ```
    ///
    /// ## Fix
    /// Fold it into one quoted line. Safe for `>` (YAML already joins the lines with spaces); unsafe for `|`,
    /// whose line breaks become spaces.
    RULE {
        name: "description-block-scalar",
        group: "description",
        severity: Error,
        profiles: [Nagents],
        fix: Safe,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    let Some(entry) = context.field("description") else {
        return;
    };
    let Some((text, style)) = entry.value.as_scalar() else {
        return;
    };
    if !style.is_block() {
        return;
    }
    let folded = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let applicability = if style == Style::Folded && !text.trim_end().contains('\n') {
        Applicability::Safe
    } else {
        Applicability::Unsafe
    };
    // The block's range ends after its last line break; keep that break after the folded value.
    let written = entry.value.range.slice(context.source);
    let kept_newline = written.len() - written.trim_end_matches(['\n', '\r']).len();
    let mut range = entry.value.range;
    range.end -= kept_newline as u32;
    let indicator = if style == Style::Literal { "|" } else { ">" };
    findings.push(
        Finding::new(
            range,
            format!("`description` is a `{indicator}` block scalar; nagents refuses it (use one single-line description value)"),
        )
        .with_fix("Fold the description into one line", applicability, vec![TextEdit { range, replacement: double_quoted(&folded) }]),
    );
}
