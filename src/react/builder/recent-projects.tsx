'use client';
/** A returning end user's latest projects in the builder's empty conversation, to carry on where they left off. */
import { useEffect } from 'react';
import { useAgentLabels } from '../provider/use-agent-labels.js';
import { ProjectItems } from '../projects/project-list.js';
import { useProjects } from '../projects/use-projects.js';

/** How many projects the empty builder offers; the rest are one click away in the Projects sheet. */
const shown = 3;

/**
 * Renders nothing until there is something to offer: a first visit (no projects), a proxy without the
 * projects route, a failed or pending load all leave the empty builder as it is.
 */
export function RecentProjects({ onShowAll }: { onShowAll: () => void }) {
  const text = useAgentLabels().agentBuilder;
  // Asked again each time the builder is empty again, as the Projects sheet does: a build since changed it.
  const projects = useProjects({ enabled: false });
  const { load } = projects;
  useEffect(() => {
    void load();
  }, [load]);
  if (projects.items.length === 0) return null;
  return (
    <section className="ae-builder-recent" aria-label={text.recentLabel}>
      <h2 className="ae-label">{text.recentLabel}</h2>
      <ProjectItems projects={projects} items={projects.items.slice(0, shown)} />
      {projects.items.length > shown && (
        <button type="button" className="ae-button ae-button-quiet" onClick={onShowAll}>
          {text.allProjects(projects.items.length)}
        </button>
      )}
    </section>
  );
}
