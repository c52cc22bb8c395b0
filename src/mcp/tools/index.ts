// The registry of the 12 MCP tools (names fixed by the spec). The server registers these, the
// site's tools reference page is generated from them, and tests walk them.
import type { ToolDefinition } from '../define-tool.ts';
import { listMeetingsTool } from './list-meetings.ts';
import { getMeetingTool } from './get-meeting.ts';
import { getMeetingTranscriptTool } from './get-meeting-transcript.ts';
import { askDocumentsTool } from './ask-documents.ts';
import { listAgentsTool } from './list-agents.ts';
import { agentResultsTool } from './agent-results.ts';
import { getQualificationResultsTool } from './get-qualification-results.ts';
import { getDealsTool } from './get-deals.ts';
import { getDealTool } from './get-deal.ts';
import { getTeamsTool } from './get-teams.ts';
import { listReportsTool } from './list-reports.ts';
import { readReportTool } from './read-report.ts';

export const tools: readonly ToolDefinition[] = [
  listMeetingsTool,
  getMeetingTool,
  getMeetingTranscriptTool,
  askDocumentsTool,
  listAgentsTool,
  agentResultsTool,
  getQualificationResultsTool,
  getDealsTool,
  getDealTool,
  getTeamsTool,
  listReportsTool,
  readReportTool,
];

/** The tools by name (the MCP endpoint's direct path looks them up per call). */
export const toolsByName: ReadonlyMap<string, ToolDefinition> = new Map(tools.map((t) => [t.name, t]));

export function findTool(name: string): ToolDefinition | undefined {
  return toolsByName.get(name);
}

export type { ToolDefinition } from '../define-tool.ts';
