// Workspace notices (what a client makes of the folders, beside the lint findings), grouped for the problems list.
import type { WorkspaceNotice } from "./backend";

export interface NoticeGroup {
  /** The kind of notice, as its heading. */
  title: string;
  severity: WorkspaceNotice["severity"];
  client: string | null;
  notices: WorkspaceNotice[];
}

const RANK: Record<WorkspaceNotice["severity"], number> = { error: 0, warning: 1, info: 2 };

/** The notices by kind, worst first, each group in the order the backend gave; a group takes its worst severity. */
export function groupNotices(notices: WorkspaceNotice[]): NoticeGroup[] {
  const groups = new Map<string, NoticeGroup>();
  for (const notice of notices) {
    const group = groups.get(notice.group);
    if (!group) {
      groups.set(notice.group, { title: notice.group, severity: notice.severity, client: notice.client, notices: [notice] });
      continue;
    }
    group.notices.push(notice);
    if (RANK[notice.severity] < RANK[group.severity]) group.severity = notice.severity;
  }
  return [...groups.values()].sort((a, b) => RANK[a.severity] - RANK[b.severity]);
}

/** The notices about each SKILL.md, for the tree's markers. */
export function noticesByPath(notices: WorkspaceNotice[]): Map<string, WorkspaceNotice[]> {
  const byPath = new Map<string, WorkspaceNotice[]>();
  for (const notice of notices) {
    if (!notice.path) continue;
    const list = byPath.get(notice.path) ?? [];
    list.push(notice);
    byPath.set(notice.path, list);
  }
  return byPath;
}
