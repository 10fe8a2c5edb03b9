/** French texts of every component (`agent-embed/locales/fr`), addressing the end user as « vous ». */
import type { AgentLabels } from '../../react/index.js';
import { plural } from '../plural.js';
import { integrations } from './integrations.js';

/** The French pack: pass it as `labels={fr}` or in `locales={{ fr }}`. */
export const fr: AgentLabels = {
  phase: {
    idle: 'Pas commencé',
    submitting: 'Envoi en cours',
    provisioning: 'Préparation',
    generating: 'Construction en cours',
    recovering: 'Reconnexion',
    stopped: 'Suivi arrêté',
    ready: 'Prêt',
    failed: 'Échec',
    credits_exhausted: 'Crédits épuisés',
    interrupted: 'Connexion perdue',
    gone: 'Introuvable',
  },
  conversation: {
    regionLabel: 'Conversation',
    empty: 'Décrivez l’application que vous voulez : elle sera construite ici.',
    you: 'Vous',
    generate: 'Nouvelle application',
    followUp: 'Modification',
    modeBuild: 'Construire',
    modeDesign: 'Maquetter',
    running: 'C’est en cours…',
    outcome: (outcome, counts, values) => {
      const created = plural('fr', values.created, {
        one: `${counts.created} nouveau fichier`,
        many: `${counts.created} de nouveaux fichiers`,
        other: `${counts.created} nouveaux fichiers`,
      });
      const summary =
        values.modified === 0
          ? created
          : values.created === 0
            ? plural('fr', values.modified, {
                one: `${counts.modified} fichier modifié`,
                many: `${counts.modified} de fichiers modifiés`,
                other: `${counts.modified} fichiers modifiés`,
              })
            : `${created}, ${counts.modified} ${plural('fr', values.modified, { one: 'modifié', many: 'modifiés', other: 'modifiés' })}`;
      switch (outcome.status) {
        case 'completed':
          if (values.created === 0 && values.modified === 0 && values.steps === 0) return 'Terminé.';
          return `Terminé : ${summary}, ${plural('fr', values.steps, { one: `${counts.steps} étape`, many: `${counts.steps} d’étapes`, other: `${counts.steps} étapes` })}.`;
        case 'credits_exhausted':
          return `Arrêté faute de crédits, après ${summary}.`;
        case 'failed':
          return `La construction a échoué après ${summary}.`;
        case 'interrupted':
          return 'La connexion a été perdue avant la fin de la construction.';
        case 'stopped':
          return `Vous avez arrêté le suivi après ${summary}. La construction a pu continuer.`;
        default:
          return outcome.status satisfies never;
      }
    },
  },
  projectList: {
    regionLabel: 'Vos projets',
    heading: 'Vos projets',
    loading: 'Chargement de vos projets…',
    empty: 'Vos projets apparaîtront ici dès que vous en aurez construit un.',
    unavailable: 'Vos projets précédents ne peuvent pas être affichés ici.',
    errorTitle: 'Impossible de charger vos projets',
    untitled: 'Application sans nom',
    updated: (status, time) => `${status} · ${time}`,
  },
  generatePanel: {
    heading: 'Créer une application',
    followUpHeading: 'Affiner votre application',
    promptLabel: 'Décrivez l’application que vous voulez',
    followUpPromptLabel: 'Que faut-il changer ?',
    promptPlaceholder:
      'Un site de réservation pour un studio de yoga, avec un planning des cours et un formulaire d’inscription',
    followUpPromptPlaceholder: 'Rendre l’en-tête fixe et ajouter une page de contact',
    promptHint: 'Dites à quoi elle sert, les pages dont elle a besoin et le style que vous souhaitez.',
    followUpPromptHint: 'Décrivez une modification à la fois.',
    promptTooShort: 'La description doit faire au moins 10 caractères.',
    modeLegend: 'Mode',
    modeBuild: 'Construire',
    modeBuildDescription: 'Une application complète, front-end et back-end.',
    modeDesign: 'Maquetter',
    modeDesignDescription: 'Un design centré sur le front-end.',
    submit: 'Générer',
    followUpSubmit: 'Envoyer la modification',
    submitting: 'En cours…',
    cancel: 'Arrêter le suivi',
    newProject: 'Nouveau projet',
    errorTitle: 'Impossible de lancer votre application',
    followUpErrorTitle: 'Votre modification n’a pas pu être envoyée',
    connectionDroppedTitle: 'La connexion a été coupée',
    connectionDroppedHint:
      'Si votre application a commencé à être construite malgré tout, elle apparaîtra parmi vos projets.',
    followUpConnectionDroppedHint:
      'Votre modification est peut-être arrivée au serveur. Vérifiez votre application avant de la renvoyer.',
    buyCredits: 'Acheter des crédits',
    followUpTarget: (projectName) => `Les modifications s’appliquent à ${projectName}.`,
    unnamedProject: 'votre application',
    followUpWhenBuilt:
      'Cette application est en cours de construction. Vous pourrez envoyer une modification une fois terminée.',
  },
  liveBuildLog: {
    regionLabel: 'Avancement de la construction',
    heading: 'Avancement de la construction',
    idle: 'Rien n’est en construction pour l’instant.',
    progressLabel: 'Avancement de la construction',
    progressValue: (percentage) => `${percentage} effectués`,
    stages: {
      none: '',
      sending: 'Envoi de votre demande…',
      container: 'Préparation d’un espace pour votre application…',
      generating: 'Écriture de votre application…',
      done: 'Terminé.',
    },
    otherTool: 'Étape',
    toolNames: {
      plan: 'Planification',
      write_files: 'Écriture des fichiers',
      install_dependencies: 'Installation des dépendances',
      run_build: 'Compilation',
      run_tests: 'Tests',
      build: 'Compilation',
      read_context: 'Lecture du contexte',
    },
    filesLabel: 'Fichiers générés',
    fileCount: (created, modified, total) =>
      modified === '0'
        ? plural('fr', total, {
            one: `${created} nouveau fichier`,
            many: `${created} de nouveaux fichiers`,
            other: `${created} nouveaux fichiers`,
          })
        : created === '0'
          ? plural('fr', total, {
              one: `${modified} fichier modifié`,
              many: `${modified} de fichiers modifiés`,
              other: `${modified} fichiers modifiés`,
            })
          : `Nouveaux fichiers : ${created} · modifiés : ${modified}`,
    fileCreated: 'nouveau',
    fileModified: 'modifié',
    toolsLabel: 'Étapes de l’agent',
    toolsOmitted: (count, value) =>
      plural('fr', value, {
        one: `${count} étape précédente masquée`,
        many: `${count} d’étapes précédentes masquées`,
        other: `${count} étapes précédentes masquées`,
      }),
    unknownEvents: (count, value) =>
      plural('fr', value, {
        one: `${count} autre mise à jour`,
        many: `${count} d’autres mises à jour`,
        other: `${count} autres mises à jour`,
      }),
    completed: 'Votre application est prête.',
    openApp: 'Ouvrir l’application',
    unsafeUrl: 'L’adresse de l’application n’est pas une adresse web : elle n’est donc pas affichée comme lien.',
    creditsExhausted: 'Vous n’avez plus de crédits.',
    creditsExhaustedHint: 'Achetez des crédits pour continuer à construire.',
    buyCredits: 'Acheter des crédits',
    failed: 'La construction a échoué.',
    changeFailed: 'La modification a échoué.',
    recovering: 'La connexion a été coupée. Reconnexion à votre construction…',
    buildingElsewhere: 'Cette application est en cours de construction. Le résultat s’affichera ici une fois terminée.',
    interrupted: 'La connexion a été perdue et nous n’avons pas pu savoir comment la construction s’est terminée.',
    stopped: 'Vous avez arrêté de suivre cette construction.',
    stoppedHint: 'Elle peut encore aboutir sur le serveur ; le résultat s’affichera ici le cas échéant.',
    stoppedUnnamedHint: 'Si le serveur termine l’application malgré tout, elle figurera parmi vos projets.',
    checkingIn: (seconds) => `Nouvelle vérification dans ${seconds} s.`,
    announcements: {
      idle: '',
      submitting: 'Envoi de votre demande.',
      provisioning: 'Préparation d’un espace pour votre application.',
      generating: 'Écriture de votre application.',
      recovering: 'Connexion coupée. Reconnexion à votre construction.',
      stopped: 'Suivi arrêté. La construction peut encore aboutir.',
      ready: 'Votre application est prête.',
      credits_exhausted: 'Vous n’avez plus de crédits.',
      failed: 'La construction a échoué.',
      interrupted: 'La connexion a été perdue.',
      gone: 'Ce projet est introuvable.',
    },
  },
  projectStatus: {
    regionLabel: 'État du projet',
    heading: 'Projet',
    noProject: 'Pas encore de projet.',
    loading: 'Chargement de l’état du projet…',
    nameLabel: 'Nom',
    statusLabel: 'État',
    appLabel: 'Application',
    openApp: 'Ouvrir l’application',
    unsafeUrl: 'Pas une adresse web',
    updatedLabel: 'Dernière mise à jour',
    never: 'Pas encore',
    paused: 'Les mises à jour sont suspendues tant que cette page est masquée.',
    errorPrefix: 'Impossible de charger l’état :',
  },
  appPreview: {
    regionLabel: 'Aperçu de l’application',
    frameTitle: 'Aperçu de l’application générée',
    empty: 'Votre application apparaîtra ici.',
    waiting: {
      idle: '',
      submitting: 'Votre application apparaîtra ici une fois construite.',
      provisioning: 'Votre application apparaîtra ici une fois construite.',
      generating: 'Votre application apparaîtra ici une fois construite.',
      recovering: 'Reconnexion à votre construction…',
      stopped: 'La construction peut encore aboutir sur le serveur ; l’application apparaîtra alors ici.',
      ready: '',
      failed: 'La construction n’a pas abouti : il n’y a rien à afficher.',
      credits_exhausted: 'La construction s’est arrêtée faute de crédits.',
      interrupted: 'Nous n’avons pas pu savoir comment la construction s’est terminée.',
      gone: 'Ce projet est introuvable. Il a peut-être été supprimé ; commencez-en un nouveau.',
    },
    stoppedUnnamed: 'Si le serveur termine l’application malgré tout, elle figurera parmi vos projets.',
    unsafeUrl: 'L’adresse de l’application n’est pas une adresse web : impossible d’en afficher l’aperçu.',
    updating: 'Mise à jour de votre application…',
    reload: 'Recharger',
    openInNewTab: 'Ouvrir l’application',
    devicesLabel: 'Largeur de l’aperçu',
    mobile: 'Mobile',
    tablet: 'Tablette',
    desktop: 'Ordinateur',
  },
  usageMeter: {
    left: (left, limit, period, limitCount) => {
      const base = `Encore ${left} sur ${plural('fr', limitCount, { one: `${limit} création`, many: `${limit} de créations`, other: `${limit} créations` })}`;
      switch (period) {
        case 'day':
          return `${base} aujourd’hui`;
        case 'week':
          return `${base} cette semaine`;
        case 'month':
          return `${base} ce mois-ci`;
        default:
          return base;
      }
    },
    moreAt: (when) => `D’autres à partir de ${when}`,
  },
  agentBuilder: {
    regionLabel: 'Créateur d’applications',
    toolbarLabel: 'Projet',
    buildLabel: 'Chat',
    resultLabel: 'Aperçu',
    shipLabel: 'Publier',
    shipTitle: 'Publier votre application',
    plansLabel: 'Offres',
    projectsLabel: 'Projets',
    recentLabel: 'Reprendre un projet',
    allProjects: (count, formatted) =>
      plural('fr', count, {
        one: `Voir le projet (${formatted})`,
        many: `Voir les ${formatted} de projets`,
        other: `Voir les ${formatted} projets`,
      }),
    close: 'Fermer',
    newProject: 'Nouveau projet',
    newApp: 'Nouvelle application',
    changeFailed: 'Échec de la dernière modification',
    showDetails: 'Afficher les détails de la construction',
    hideDetails: 'Masquer les détails de la construction',
    tabs: { chat: 'Chat', preview: 'Aperçu', ship: 'Publier' },
    appReady: 'Votre app est prête.',
    seeApp: 'La voir dans l’aperçu',
  },
  ...integrations,
};
