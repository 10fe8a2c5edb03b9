/** Texts of `AgentBuilder`. */
export interface AgentBuilderLabels {
  regionLabel: string;
  buildLabel: string;
  resultLabel: string;
  shipLabel: string;
  plansLabel: string;
}

/** The default (English) texts of `AgentBuilder`. */
export const defaultAgentBuilderLabels: AgentBuilderLabels = {
  regionLabel: 'App builder',
  buildLabel: 'Build',
  resultLabel: 'Result',
  shipLabel: 'Deploy and code',
  plansLabel: 'Plans',
};
