//! The router: a transparent relevance model that picks a skill the way an author can check.
//!
//! Okapi BM25 over what the model is shown about each skill (name, description and, where the
//! client shows them, 10xGraph's `metadata.triggers`), against the user's text. Every skill's
//! score and the terms that produced it are reported, so an author can see why a skill was or
//! was not chosen. The index is built once per catalog; a query touches only its own terms.

use std::collections::{BTreeSet, HashMap};

use serde::{Deserialize, Serialize};

/// Term-frequency saturation.
const K1: f64 = 1.2;
/// Length normalisation.
const B: f64 = 0.75;
/// The default score a skill needs before the router calls it.
pub const DEFAULT_THRESHOLD: f64 = 0.5;

/// A threshold no score can be compared with: not a number, infinite, or below zero.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("the router threshold must be a finite number of at least 0, got {0}")]
pub struct InvalidThreshold(pub f64);

/// `threshold` if the router can use it: scores are never negative, and a NaN would make every
/// comparison false (no skill chosen, with no hint why).
pub fn check_threshold(threshold: f64) -> Result<f64, InvalidThreshold> {
    if threshold.is_finite() && threshold >= 0.0 {
        Ok(threshold)
    } else {
        Err(InvalidThreshold(threshold))
    }
}

/// Words that carry no topic; matching them would make every skill look relevant. Sorted, for
/// binary search.
const STOPWORDS: &[&str] = &[
    "a", "about", "an", "and", "are", "as", "at", "be", "by", "can", "do", "for", "from", "how",
    "i", "if", "in", "into", "is", "it", "its", "me", "my", "of", "on", "or", "please", "that",
    "the", "this", "to", "use", "used", "using", "we", "what", "when", "with", "you", "your",
];

/// What the router reads about one skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RouterDocument {
    pub name: String,
    pub description: String,
    pub triggers: Vec<String>,
}

/// One skill's relevance to a query.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SkillScore {
    pub name: String,
    pub score: f64,
    /// Query terms found in the skill's text, in query order.
    pub matched_terms: Vec<String>,
}

/// Lowercased alphanumeric words, stopwords removed; `pdf-tools` gives `pdf` and `tools`.
pub fn tokenize(text: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    tokenize_into(text, &mut tokens);
    tokens
}

fn tokenize_into(text: &str, tokens: &mut Vec<String>) {
    for word in text.split(|c: char| !c.is_alphanumeric()) {
        if word.is_empty() {
            continue;
        }
        let word = if word
            .bytes()
            .any(|b| b.is_ascii_uppercase() || !b.is_ascii())
        {
            word.to_lowercase()
        } else {
            word.to_string()
        };
        if STOPWORDS.binary_search(&word.as_str()).is_err() {
            tokens.push(word);
        }
    }
}

/// A BM25 index over a catalog.
#[derive(Debug, Clone, Default)]
pub struct RouterIndex {
    names: Vec<String>,
    lengths: Vec<f64>,
    average_length: f64,
    /// term → (document, frequency) pairs.
    postings: HashMap<String, Vec<(usize, u32)>>,
}

impl RouterIndex {
    pub fn new(documents: &[RouterDocument]) -> Self {
        let mut postings: HashMap<String, Vec<(usize, u32)>> = HashMap::new();
        let mut lengths = Vec::with_capacity(documents.len());
        for (index, document) in documents.iter().enumerate() {
            let mut tokens = Vec::new();
            tokenize_into(&document.name, &mut tokens);
            tokenize_into(&document.description, &mut tokens);
            for trigger in &document.triggers {
                tokenize_into(trigger, &mut tokens);
            }
            lengths.push(tokens.len() as f64);
            let mut counts: HashMap<String, u32> = HashMap::new();
            for token in tokens {
                *counts.entry(token).or_default() += 1;
            }
            for (term, count) in counts {
                postings.entry(term).or_default().push((index, count));
            }
        }
        let average_length = if lengths.is_empty() {
            0.0
        } else {
            lengths.iter().sum::<f64>() / lengths.len() as f64
        };
        Self {
            names: documents
                .iter()
                .map(|document| document.name.clone())
                .collect(),
            lengths,
            average_length,
            postings,
        }
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Every skill's score for `query`, best first (ties by name).
    pub fn rank(&self, query: &str) -> Vec<SkillScore> {
        let count = self.names.len() as f64;
        let mut scores = vec![0.0_f64; self.names.len()];
        let mut matched: Vec<Vec<String>> = vec![Vec::new(); self.names.len()];
        let mut seen = BTreeSet::new();
        for term in tokenize(query) {
            if !seen.insert(term.clone()) {
                continue;
            }
            let Some(postings) = self.postings.get(&term) else {
                continue;
            };
            let frequency = postings.len() as f64;
            let idf = (1.0 + (count - frequency + 0.5) / (frequency + 0.5)).ln();
            for &(document, tf) in postings {
                let tf = f64::from(tf);
                let length = self.lengths.get(document).copied().unwrap_or(0.0);
                let norm = if self.average_length > 0.0 {
                    1.0 - B + B * length / self.average_length
                } else {
                    1.0
                };
                if let (Some(score), Some(terms)) =
                    (scores.get_mut(document), matched.get_mut(document))
                {
                    *score += idf * tf * (K1 + 1.0) / (tf + K1 * norm);
                    terms.push(term.clone());
                }
            }
        }
        let mut ranked: Vec<SkillScore> = self
            .names
            .iter()
            .zip(scores)
            .zip(matched)
            .map(|((name, score), matched_terms)| SkillScore {
                name: name.clone(),
                // Rounded so that reports are stable across platforms and easy to read.
                score: (score * 10_000.0).round() / 10_000.0,
                matched_terms,
            })
            .collect();
        ranked.sort_by(|a, b| {
            b.score
                .total_cmp(&a.score)
                .then_with(|| a.name.cmp(&b.name))
        });
        ranked
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_the_router_cannot_compare_are_refused() {
        assert_eq!(check_threshold(0.0), Ok(0.0));
        assert_eq!(check_threshold(2.5), Ok(2.5));
        for bad in [-0.1, f64::INFINITY, f64::NEG_INFINITY] {
            assert_eq!(check_threshold(bad), Err(InvalidThreshold(bad)));
        }
        let nan = check_threshold(f64::NAN).map_err(|error| error.to_string());
        assert_eq!(
            nan,
            Err("the router threshold must be a finite number of at least 0, got NaN".into())
        );
    }

    fn document(name: &str, description: &str, triggers: &[&str]) -> RouterDocument {
        RouterDocument {
            name: name.into(),
            description: description.into(),
            triggers: triggers.iter().map(|t| t.to_string()).collect(),
        }
    }

    #[test]
    fn ranks_the_relevant_skill_first_and_reports_terms() {
        let index = RouterIndex::new(&[
            document("pdf-tools", "Extract text and tables from PDF files.", &[]),
            document(
                "sql-helper",
                "Write and debug SQL queries.",
                &["fix this join"],
            ),
        ]);
        let ranked = index.rank("Please extract the tables from this PDF");
        assert_eq!(ranked[0].name, "pdf-tools");
        assert_eq!(ranked[0].matched_terms, ["extract", "tables", "pdf"]);
        assert_eq!(ranked[1].score, 0.0);
        assert_eq!(index.rank("why does my join fail")[0].name, "sql-helper");
    }

    #[test]
    fn stopwords_are_sorted_for_binary_search() {
        assert!(STOPWORDS.windows(2).all(|pair| pair[0] < pair[1]));
    }

    #[test]
    fn tokenizes_unicode_words_and_drops_stopwords() {
        assert_eq!(tokenize("Use the Café-Menu, please!"), ["café", "menu"]);
    }
}
