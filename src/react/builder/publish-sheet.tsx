'use client';
/**
 * The builder's Publish sheet as one story: publish the app to the web, then save its code to GitHub. One
 * filled action at a time, the next step's: deploy until the app is live, then connect GitHub, then choose
 * the repository and save the code.
 */
import { CodehostConnect, type CodehostConnectProps } from '../integrations/codehost-connect.js';
import { DeployButton } from '../integrations/deploy-button.js';
import { RepoPicker } from '../integrations/repo-picker.js';
import { useAppProject } from '../integrations/use-app-project.js';
import { useCodehost } from '../integrations/use-codehost.js';
import { useDeployment } from '../integrations/use-deployment.js';

/** Props of `PublishSheet`. */
export interface PublishSheetProps {
  provider: string;
  codehost: Pick<CodehostConnectProps, 'mode' | 'returnUrl' | 'navigate' | 'openWindow'> | undefined;
  repositoriesPerPage: number | undefined;
}

/** Deploy, connect GitHub and save the code, the next step's action filled. */
export function PublishSheet({ provider, codehost, repositoriesPerPage }: PublishSheetProps) {
  const live = useDeployment(provider, useAppProject().projectId).deployment.status === 'success';
  const connected = useCodehost({ refreshOnReturn: false }).connectionStatus === 'connected';
  const next = !live ? 'deploy' : connected ? 'repository' : 'connect';
  return (
    <div className="ae-builder-ship" data-next={next}>
      {/* Deploy holds the filled action until the app is live (its Redeploy is then a quiet one). */}
      <DeployButton provider={provider} />
      <CodehostConnect emphasis={next === 'connect' ? 'primary' : 'secondary'} {...codehost} />
      <RepoPicker
        emphasis={next === 'repository' ? 'primary' : 'secondary'}
        {...(repositoriesPerPage === undefined ? {} : { perPage: repositoriesPerPage })}
      />
    </div>
  );
}
