'use client';
/** A returning end user's latest projects in the builder's empty conversation, to carry on where they left off. */
import { useAgentFormat } from '../provider/use-agent-format.js';
import { useAgentLabels } from '../provider/use-agent-labels.js';
import { ProjectItems, useListedProjects } from '../projects/project-list.js';
import { useFreshProjects } from '../projects/use-projects.js';

/** How many projects the empty builder offers; the rest are one click away in the Projects sheet. */
const shown = 3;

/**
 * Renders nothing until there is something to offer: a first visit (no projects), a proxy without the
 * projects route, a failed or pending load all leave the empty builder as it is.
 */
export function RecentProjects({ onShowAll }: { onShowAll: () => void }) {
  const text = useAgentLabels().agentBuilder;
  const format = useAgentFormat();
  // Asked again each time the builder is empty again: a build since changed them.
  const projects = useFreshProjects();
  const rows = useListedProjects(projects.data, shown);
  if (rows.length === 0) return null;
  const listed = projects.data?.length ?? 0;
  return (
    <section className="ae-builder-recent" aria-label={text.recentLabel}>
      <h2 className="ae-label">{text.recentLabel}</h2>
      <ProjectItems projects={projects} rows={rows} />
      {listed > shown && (
        <button type="button" className="ae-button ae-button-quiet" onClick={onShowAll}>
          {text.allProjects(listed, format.number(listed))}
        </button>
      )}
    </section>
  );
}
