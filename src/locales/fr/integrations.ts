/** French texts of deploy, code host, repositories, plans and errors (the second half of the `fr` pack). */
import type { AgentLabels } from '../../react/index.js';
import { plural } from '../plural.js';

const repositories = (count: string, value: number) =>
  plural('fr', value, { one: `${count} dépôt`, many: `${count} de dépôts`, other: `${count} dépôts` });

/** Part of `fr`. */
export const integrations: Pick<
  AgentLabels,
  'deployButton' | 'codehostConnect' | 'repoPicker' | 'planList' | 'errors'
> = {
  deployButton: {
    providerNames: { vercel: 'Vercel', netlify: 'Netlify' },
    heading: () => 'Publier sur le web',
    signedOut: 'Connectez-vous pour déployer votre application.',
    loading: (provider) => `Vérification de votre connexion à ${provider}…`,
    connectedAs: (account) => `Connecté en tant que ${account}`,
    connected: 'Connecté',
    notConnected: (provider) => `Pas encore connecté à ${provider}.`,
    expired: (provider) => `Votre connexion à ${provider} a expiré. Reconnectez-vous pour déployer.`,
    unknownProviderHint: 'Le déploiement vers ce fournisseur n’est pas disponible.',
    loadErrorTitle: 'Impossible de vérifier votre connexion',
    retry: 'Réessayer',
    noProject: 'Générez d’abord une application, puis déployez-la.',
    building: 'Vous pourrez déployer une fois les modifications terminées.',
    deploy: (provider) => `Déployer sur ${provider}`,
    redeploy: 'Redéployer',
    deploying: (provider) => `Déploiement sur ${provider}…`,
    deployed: 'Déployé',
    deploymentStatuses: {
      ready: 'En ligne',
      building: 'Construction en cours',
      queued: 'En file d’attente',
      error: 'Échec',
      canceled: 'Annulé',
    },
    connectFirst: (provider) => `Connectez votre compte ${provider} pour déployer votre application.`,
    openDeployment: 'Ouvrir le déploiement',
    unsafeUrl: 'L’adresse du déploiement n’est pas une adresse web : elle n’est donc pas affichée comme lien.',
    failedTitle: 'Le déploiement a échoué',
    redeployFailedTitle: 'La nouvelle version n’a pas été déployée ; le site reste tel qu’il était',
    connect: (provider) => `Connecter ${provider}`,
    reconnect: 'Utiliser un autre compte',
    dialogTitle: (provider) => `Connecter ${provider}`,
    dialogDescription: (provider) =>
      `Créez un jeton d’accès dans les paramètres de votre compte ${provider} (rubrique « Tokens »), puis collez-le ici. Il est vérifié une seule fois et enregistré pour votre compte, pas dans cette page.`,
    tokenLabel: (provider) => `Jeton d’accès ${provider}`,
    tokenRequired: 'Saisissez un jeton d’accès.',
    tokenRejected:
      'Ce jeton n’a pas été accepté. Vérifiez qu’il est complet et toujours valide, puis collez-le à nouveau.',
    submit: 'Connecter',
    submitting: 'Connexion…',
    cancel: 'Annuler',
    connectErrorTitle: 'Le jeton n’a pas été accepté',
  },
  codehostConnect: {
    regionLabel: 'Enregistrer le code sur GitHub',
    heading: 'Enregistrer le code sur GitHub',
    signedOut: 'Connectez-vous pour relier GitHub.',
    loading: 'Vérification de votre connexion GitHub…',
    disconnected: 'Connectez GitHub pour conserver le code de votre application dans un dépôt.',
    connect: 'Connecter GitHub',
    reconnect: 'Se reconnecter',
    refresh: 'Actualiser',
    starting: 'Ouverture de la page d’installation…',
    redirecting: 'Redirection vers la page d’installation…',
    popupOpened:
      'Terminez l’installation dans la fenêtre qui s’est ouverte. Cette page se mettra à jour à votre retour.',
    connectedAs: (login) => `Connecté en tant que ${login}`,
    connected: 'Connecté',
    expired: 'Votre connexion GitHub a expiré. Reconnectez-vous pour continuer à enregistrer votre code.',
    inactive: 'L’app GitHub n’est pas active pour ce compte. Installez-la de nouveau pour continuer.',
    loginLabel: 'Compte',
    installationLabel: 'Installation',
    connectedLabel: 'Connecté',
    updatedLabel: 'Mis à jour',
    installationStatuses: { active: 'Active', suspended: 'Suspendue', deleted: 'Supprimée' },
    installationUnknown: 'Inconnu',
    errorTitle: 'Impossible de relier GitHub',
    loadErrorTitle: 'Impossible de vérifier votre connexion GitHub',
  },
  repoPicker: {
    regionLabel: 'Dépôts',
    heading: 'Dépôt',
    signedOut: 'Connectez-vous pour choisir un dépôt.',
    notConnected: 'Reliez GitHub pour choisir un dépôt pour votre code.',
    searchLabel: 'Rechercher un dépôt',
    searchPlaceholder: 'Filtrer par nom',
    listLabel: 'Dépôts',
    loading: 'Chargement des dépôts…',
    empty: 'Aucun dépôt pour l’instant. Créez-en un ci-dessous en enregistrant votre code.',
    noMatches: (query) => `Aucun dépôt chargé ne correspond à « ${query} ».`,
    matchCount: (matches, loaded, counts) =>
      `${matches} ${plural('fr', counts.loaded, { one: `dépôt chargé sur ${loaded}`, many: `des ${loaded} de dépôts chargés`, other: `des ${loaded} dépôts chargés` })} ${plural('fr', counts.matches, { one: 'correspond', many: 'correspondent', other: 'correspondent' })}.`,
    searchScope: (loaded, total) =>
      total === undefined
        ? `Recherche limitée aux dépôts chargés jusqu’ici (${loaded}).`
        : `Recherche parmi les ${loaded} dépôts sur ${total} chargés jusqu’ici.`,
    searchLoadMore: 'Charger plus pour chercher',
    private: 'Privé',
    linkedBadge: 'Lié',
    public: 'Public',
    defaultBranch: (branch) => branch,
    pageStatus: (page, pages, total, totalCount) => `Page ${page} sur ${pages} · ${repositories(total, totalCount)}`,
    loadedCount: (count, value) =>
      plural('fr', value, {
        one: `${count} dépôt chargé`,
        many: `${count} de dépôts chargés`,
        other: `${count} dépôts chargés`,
      }),
    previousPage: 'Page précédente',
    nextPage: 'Page suivante',
    loadMore: 'Charger plus',
    loadErrorTitle: 'Impossible de charger vos dépôts',
    pageErrorTitle: 'Impossible de charger plus de dépôts',
    noneSelected: 'Choisissez le dépôt du code de cette app.',
    noProject: 'Créez d’abord une app, puis enregistrez son code ici.',
    building: 'Vous pourrez enregistrer le code une fois les modifications terminées.',
    link: (fullName) => `Utiliser ${fullName}`,
    linking: 'Choix en cours…',
    linkedTitle: (fullName) => `Votre code va dans ${fullName}`,
    branchLabel: 'Branche',
    openRepository: (fullName) => `Ouvrir ${fullName}`,
    unsafeUrl: 'Pas une adresse web',
    linkErrorTitle: 'Ce dépôt n’a pas pu être choisi',
    linkFailedTitle: (fullName) => `${fullName} n’a pas pu être choisi`,
    pushHeading: 'Ou enregistrer dans un nouveau dépôt',
    pushTo: (fullName) => `Enregistrer le code dans ${fullName}`,
    pushing: 'Enregistrement…',
    newRepositoryLabel: 'Nom du nouveau dépôt',
    newRepositoryHint:
      'Créé sous votre compte s’il n’existe pas encore. Pour un autre propriétaire : propriétaire/nom.',
    newRepositoryRequired: 'Saisissez un nom de dépôt.',
    ownerUnknown: 'Reliez d’abord GitHub, ou utilisez propriétaire/nom.',
    pushNew: 'Créer et enregistrer',
    pushedCreated: (fullName) => `${fullName} créé et votre code enregistré`,
    pushedExisting: (fullName) => `Votre code est enregistré dans ${fullName}`,
    pushErrorTitle: 'Votre code n’a pas été enregistré',
  },
  planList: {
    regionLabel: 'Offres',
    heading: 'Offres',
    loading: 'Chargement des offres…',
    empty: 'Aucune offre n’est disponible.',
    errorTitle: 'Impossible de charger les offres',
    retry: 'Réessayer',
    free: 'Gratuit',
    customPrice: 'Tarif sur mesure',
    perMonth: (price) => `${price} par mois`,
    choose: (plan) => `Choisir ${plan}`,
  },
  errors: {
    kinds: {
      unauthorized:
        'Cette fonctionnalité n’est pas disponible pour le moment. Merci de prévenir le responsable du site.',
      token_expired: 'Cette fonctionnalité demande une intervention du responsable du site. Merci de le prévenir.',
      suspended: 'Cette fonctionnalité est en pause pour le moment. Contactez le responsable du site.',
      insufficient_credits: 'Vous n’avez plus de crédits. Achetez-en pour continuer.',
      forbidden:
        'Vous n’avez pas accès à cet élément. Demandez au responsable du site si vous pensez que c’est une erreur.',
      not_found: 'Introuvable. Cet élément a peut-être été supprimé.',
      validation: 'Vérifiez votre saisie et réessayez.',
      rate_limited: 'Trop de demandes en peu de temps. Patientez un instant, puis réessayez.',
      conflict: 'Cet élément a changé entre-temps. Actualisez la page et réessayez.',
      upstream: 'Un problème est survenu de notre côté. Réessayez dans un instant.',
      network: 'Impossible de joindre le service. Vérifiez votre connexion et réessayez.',
      protocol: 'Nous avons reçu une réponse incompréhensible. Réessayez dans un instant.',
      aborted: 'Annulé.',
    },
    rateLimitedFor: (seconds) => `Trop de demandes en peu de temps. Vous pourrez réessayer dans ${seconds} s.`,
    rateLimitOver: 'Vous pouvez réessayer maintenant.',
    codes: {
      project_not_found: 'Ce projet est introuvable. Il a peut-être été supprimé ; commencez-en un nouveau.',
      project_forbidden: 'Ce projet ne vous est pas accessible. Commencez-en un nouveau.',
      provider_not_found: 'Le déploiement vers ce fournisseur n’est pas disponible.',
      account_taken:
        'Ce compte d’hébergement est déjà relié à quelqu’un d’autre ici. Utilisez un jeton d’un autre compte.',
      connection_not_found: 'Votre compte n’est pas encore connecté. Connectez-le pour continuer.',
    },
    connectionMissing: {
      deployment: 'Votre compte d’hébergement n’est pas encore connecté. Connectez-le pour déployer.',
      deploymentConnection: 'Votre compte d’hébergement n’est pas encore connecté. Connectez-le pour déployer.',
      codehostConnection: 'GitHub n’est pas encore relié. Reliez-le pour continuer.',
      repositories: 'GitHub n’est pas encore relié. Reliez-le pour voir vos dépôts.',
      repository: 'GitHub n’est pas encore relié. Reliez-le pour enregistrer votre code.',
    },
    notFound: {
      project: 'Ce projet est introuvable. Il a peut-être été supprimé ; commencez-en un nouveau.',
      generation: 'Ce projet est introuvable. Il a peut-être été supprimé ; commencez-en un nouveau.',
      repository: 'Ce dépôt est introuvable. Vérifiez son nom, ou reliez GitHub de nouveau.',
    },
    conflict: {
      deploymentConnection:
        'Ce compte d’hébergement est déjà relié à quelqu’un d’autre ici. Utilisez un jeton d’un autre compte.',
    },
    details: 'Détails',
    retry: 'Réessayer',
    retryIn: (seconds) => `Réessayer dans ${seconds} s`,
    quotaExceeded: (limit, period, when, limitCount) => {
      const builds = plural('fr', limitCount, {
        one: `votre ${limit} création`,
        many: `vos ${limit} de créations`,
        other: `vos ${limit} créations`,
      });
      switch (period) {
        case 'day':
          return `Vous avez utilisé ${builds} du jour. D’autres à partir de ${when}.`;
        case 'week':
          return `Vous avez utilisé ${builds} de la semaine. D’autres à partir de ${when}.`;
        case 'month':
          return `Vous avez utilisé ${builds} du mois. D’autres à partir de ${when}.`;
        default:
          return `Vous avez utilisé ${builds} pour le moment. D’autres à partir de ${when}.`;
      }
    },
  },
};
