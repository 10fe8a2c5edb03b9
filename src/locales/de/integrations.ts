/** German texts of deploy, code host, repositories, plans and errors (the second half of the `de` pack). */
import type { AgentLabels } from '../../react/index.js';
import { plural } from '../plural.js';

const repositories = (count: string, value: number) =>
  plural('de', value, { one: `${count} Repository`, other: `${count} Repositorys` });

/** Part of `de`. */
export const integrations: Pick<
  AgentLabels,
  'deployButton' | 'codehostConnect' | 'repoPicker' | 'planList' | 'errors'
> = {
  deployButton: {
    providerNames: { vercel: 'Vercel', netlify: 'Netlify' },
    heading: () => 'Im Web veröffentlichen',
    signedOut: 'Melden Sie sich an, um Ihre App zu veröffentlichen.',
    loading: (provider) => `Ihre Verbindung zu ${provider} wird geprüft …`,
    connectedAs: (account) => `Verbunden als ${account}`,
    connected: 'Verbunden',
    notConnected: (provider) => `Noch nicht mit ${provider} verbunden.`,
    expired: (provider) =>
      `Ihre Verbindung zu ${provider} ist abgelaufen. Verbinden Sie sich erneut, um zu veröffentlichen.`,
    unknownProviderHint: 'Bei diesem Anbieter ist das Veröffentlichen nicht möglich.',
    loadErrorTitle: 'Ihre Verbindung konnte nicht geprüft werden',
    retry: 'Erneut versuchen',
    noProject: 'Erstellen Sie zuerst eine App, dann können Sie sie veröffentlichen.',
    building: 'Sie können veröffentlichen, sobald die Änderungen fertig sind.',
    deploy: (provider) => `Auf ${provider} veröffentlichen`,
    redeploy: 'Erneut veröffentlichen',
    deploying: (provider) => `Wird auf ${provider} veröffentlicht …`,
    deployed: 'Veröffentlicht',
    deploymentStatuses: {
      ready: 'Online',
      building: 'Wird gebaut',
      queued: 'In der Warteschlange',
      error: 'Fehlgeschlagen',
      canceled: 'Abgebrochen',
    },
    connectFirst: (provider) => `Verbinden Sie Ihr ${provider}-Konto, um Ihre App zu veröffentlichen.`,
    openDeployment: 'Veröffentlichte App öffnen',
    unsafeUrl: 'Die Adresse ist keine Webadresse und wird daher nicht als Link angezeigt.',
    failedTitle: 'Das Veröffentlichen ist fehlgeschlagen',
    redeployFailedTitle: 'Die neue Version wurde nicht veröffentlicht; die Website bleibt, wie sie war',
    connect: (provider) => `Mit ${provider} verbinden`,
    reconnect: 'Anderes Konto verwenden',
    dialogTitle: (provider) => `Mit ${provider} verbinden`,
    dialogDescription: (provider) =>
      `Erstellen Sie in den Kontoeinstellungen von ${provider} ein Zugriffstoken (unter „Tokens“) und fügen Sie es hier ein. Es wird einmal geprüft und für Ihr Konto gespeichert, nicht auf dieser Seite.`,
    tokenLabel: (provider) => `Zugriffstoken von ${provider}`,
    tokenRequired: 'Geben Sie ein Zugriffstoken ein.',
    tokenRejected:
      'Dieses Token wurde nicht akzeptiert. Prüfen Sie, ob es vollständig und noch gültig ist, und fügen Sie es erneut ein.',
    submit: 'Verbinden',
    submitting: 'Wird verbunden …',
    cancel: 'Abbrechen',
    connectErrorTitle: 'Das Token wurde nicht akzeptiert',
  },
  codehostConnect: {
    regionLabel: 'Code auf GitHub speichern',
    heading: 'Code auf GitHub speichern',
    signedOut: 'Melden Sie sich an, um GitHub zu verbinden.',
    loading: 'GitHub-Verbindung wird geprüft …',
    disconnected: 'Verbinden Sie GitHub, um den Code Ihrer App in einem Repository aufzubewahren.',
    connect: 'GitHub verbinden',
    reconnect: 'Erneut verbinden',
    refresh: 'Aktualisieren',
    starting: 'Die Installationsseite wird geöffnet …',
    redirecting: 'Sie werden zur Installationsseite weitergeleitet …',
    popupOpened:
      'Schließen Sie die Installation im geöffneten Fenster ab. Diese Seite aktualisiert sich, wenn Sie zurückkommen.',
    connectedAs: (login) => `Verbunden als ${login}`,
    connected: 'Verbunden',
    expired: 'Ihre GitHub-Verbindung ist abgelaufen. Verbinden Sie sich erneut, um Ihren Code weiter zu speichern.',
    inactive: 'Die GitHub-App ist für dieses Konto nicht aktiv. Installieren Sie sie erneut, um fortzufahren.',
    loginLabel: 'Konto',
    installationLabel: 'Installation',
    connectedLabel: 'Verbunden',
    updatedLabel: 'Aktualisiert',
    installationStatuses: { active: 'Aktiv', suspended: 'Gesperrt', deleted: 'Entfernt' },
    installationUnknown: 'Unbekannt',
    errorTitle: 'GitHub konnte nicht verbunden werden',
    loadErrorTitle: 'Ihre GitHub-Verbindung konnte nicht geprüft werden',
  },
  repoPicker: {
    regionLabel: 'Repositorys',
    heading: 'Repository',
    signedOut: 'Melden Sie sich an, um ein Repository auszuwählen.',
    notConnected: 'Verbinden Sie GitHub, um ein Repository für Ihren Code zu wählen.',
    searchLabel: 'Repositorys durchsuchen',
    searchPlaceholder: 'Nach Namen filtern',
    listLabel: 'Repositorys',
    loading: 'Repositorys werden geladen …',
    empty: 'Noch keine Repositorys. Legen Sie unten eines an, indem Sie Ihren Code speichern.',
    noMatches: (query) => `Kein geladenes Repository passt zu „${query}“.`,
    matchCount: (matches, loaded, counts) =>
      `${matches} von ${loaded} geladenen ${plural('de', counts.loaded, { one: 'Repository', other: 'Repositorys' })} ${plural('de', counts.matches, { one: 'passt', other: 'passen' })}.`,
    searchScope: (loaded, total, loadedCount) =>
      total === undefined
        ? `Durchsucht werden die bisher geladenen ${repositories(loaded, loadedCount)}.`
        : `Durchsucht werden die bisher geladenen ${loaded} von ${total} Repositorys.`,
    searchLoadMore: 'Mehr laden und durchsuchen',
    private: 'Privat',
    linkedBadge: 'Verknüpft',
    public: 'Öffentlich',
    defaultBranch: (branch) => branch,
    pageStatus: (page, pages, total, totalCount) => `Seite ${page} von ${pages} · ${repositories(total, totalCount)}`,
    loadedCount: (count, value) =>
      plural('de', value, { one: `${count} Repository geladen`, other: `${count} Repositorys geladen` }),
    previousPage: 'Vorherige Seite',
    nextPage: 'Nächste Seite',
    loadMore: 'Mehr laden',
    loadErrorTitle: 'Ihre Repositorys konnten nicht geladen werden',
    pageErrorTitle: 'Weitere Repositorys konnten nicht geladen werden',
    noneSelected: 'Wählen Sie das Repository für den Code dieser App.',
    noProject: 'Erstellen Sie zuerst eine App und speichern Sie dann hier ihren Code.',
    building: 'Sie können den Code speichern, sobald die Änderungen fertig sind.',
    link: (fullName) => `${fullName} verwenden`,
    linking: 'Wird gewählt …',
    linkedTitle: (fullName) => `Ihr Code kommt nach ${fullName}`,
    branchLabel: 'Branch',
    openRepository: (fullName) => `${fullName} öffnen`,
    unsafeUrl: 'Keine Webadresse',
    linkErrorTitle: 'Dieses Repository konnte nicht gewählt werden',
    linkFailedTitle: (fullName) => `${fullName} konnte nicht gewählt werden`,
    pushHeading: 'Oder in einem neuen Repository speichern',
    pushTo: (fullName) => `Code in ${fullName} speichern`,
    pushing: 'Wird gespeichert …',
    newRepositoryLabel: 'Name des neuen Repositorys',
    newRepositoryHint:
      'Wird unter Ihrem Konto angelegt, falls es noch nicht existiert. Für einen anderen Eigentümer: Eigentümer/Name.',
    newRepositoryRequired: 'Geben Sie einen Namen für das Repository ein.',
    ownerUnknown: 'Verbinden Sie zuerst GitHub oder verwenden Sie besitzer/name.',
    pushNew: 'Anlegen und speichern',
    pushedCreated: (fullName) => `${fullName} angelegt und Ihren Code gespeichert`,
    pushedExisting: (fullName) => `Ihr Code wurde in ${fullName} gespeichert`,
    pushErrorTitle: 'Ihr Code wurde nicht gespeichert',
  },
  planList: {
    regionLabel: 'Tarife',
    heading: 'Tarife',
    loading: 'Tarife werden geladen …',
    empty: 'Es sind keine Tarife verfügbar.',
    errorTitle: 'Die Tarife konnten nicht geladen werden',
    retry: 'Erneut versuchen',
    free: 'Kostenlos',
    customPrice: 'Individueller Preis',
    perMonth: (price) => `${price} pro Monat`,
    choose: (plan) => `${plan} wählen`,
  },
  errors: {
    kinds: {
      unauthorized: 'Diese Funktion ist gerade nicht verfügbar. Bitte geben Sie dem Betreiber der Website Bescheid.',
      token_expired: 'Diese Funktion muss vom Betreiber der Website geprüft werden. Bitte geben Sie ihm Bescheid.',
      suspended: 'Diese Funktion ist vorübergehend pausiert. Bitte wenden Sie sich an den Betreiber der Website.',
      insufficient_credits: 'Ihr Guthaben ist aufgebraucht. Kaufen Sie Guthaben nach, um fortzufahren.',
      forbidden: 'Sie haben darauf keinen Zugriff. Fragen Sie den Betreiber der Website, falls Sie ihn haben sollten.',
      not_found: 'Das konnten wir nicht finden. Vielleicht wurde es entfernt.',
      validation: 'Bitte prüfen Sie Ihre Eingabe und versuchen Sie es erneut.',
      rate_limited: 'Zu viele Anfragen in kurzer Zeit. Warten Sie einen Moment und versuchen Sie es dann erneut.',
      conflict: 'Hier hat sich inzwischen etwas geändert. Aktualisieren Sie und versuchen Sie es erneut.',
      upstream: 'Bei uns ist etwas schiefgelaufen. Versuchen Sie es gleich noch einmal.',
      network: 'Der Dienst ist nicht erreichbar. Prüfen Sie Ihre Verbindung und versuchen Sie es erneut.',
      protocol: 'Wir haben eine unverständliche Antwort erhalten. Versuchen Sie es gleich noch einmal.',
      aborted: 'Abgebrochen.',
    },
    rateLimitedFor: (seconds) => `Zu viele Anfragen in kurzer Zeit. In ${seconds} s können Sie es erneut versuchen.`,
    rateLimitOver: 'Sie können es jetzt erneut versuchen.',
    codes: {
      project_not_found: 'Dieses Projekt wurde nicht gefunden. Vielleicht wurde es entfernt; beginnen Sie ein neues.',
      project_forbidden: 'Dieses Projekt ist für Sie nicht verfügbar. Beginnen Sie ein neues.',
      provider_not_found: 'Bei diesem Anbieter ist das Veröffentlichen nicht möglich.',
      account_taken:
        'Dieses Hosting-Konto ist hier bereits mit jemand anderem verbunden. Verwenden Sie ein Token eines anderen Kontos.',
      connection_not_found: 'Ihr Konto ist noch nicht verbunden. Verbinden Sie es, um fortzufahren.',
    },
    connectionMissing: {
      deployment: 'Ihr Hosting-Konto ist noch nicht verbunden. Verbinden Sie es, um zu veröffentlichen.',
      deploymentConnection: 'Ihr Hosting-Konto ist noch nicht verbunden. Verbinden Sie es, um zu veröffentlichen.',
      codehostConnection: 'GitHub ist noch nicht verbunden. Verbinden Sie es, um fortzufahren.',
      repositories: 'GitHub ist noch nicht verbunden. Verbinden Sie es, um Ihre Repositorys zu sehen.',
      repository: 'GitHub ist noch nicht verbunden. Verbinden Sie es, um Ihren Code zu speichern.',
    },
    notFound: {
      project: 'Dieses Projekt wurde nicht gefunden. Vielleicht wurde es entfernt; beginnen Sie ein neues.',
      generation: 'Dieses Projekt wurde nicht gefunden. Vielleicht wurde es entfernt; beginnen Sie ein neues.',
      repository: 'Dieses Repository wurde nicht gefunden. Prüfen Sie den Namen oder verbinden Sie GitHub erneut.',
    },
    conflict: {
      deploymentConnection:
        'Dieses Hosting-Konto ist hier bereits mit jemand anderem verbunden. Verwenden Sie ein Token eines anderen Kontos.',
    },
    details: 'Details',
    retry: 'Erneut versuchen',
    retryIn: (seconds) => `Erneut versuchen in ${seconds} s`,
    quotaExceeded: (limit, period, when, limitCount) => {
      const builds = plural('de', limitCount, { one: `Ihre ${limit} Erstellung`, other: `Ihre ${limit} Erstellungen` });
      switch (period) {
        case 'day':
          return `Sie haben ${builds} für heute verbraucht. Weitere ab ${when}.`;
        case 'week':
          return `Sie haben ${builds} für diese Woche verbraucht. Weitere ab ${when}.`;
        case 'month':
          return `Sie haben ${builds} für diesen Monat verbraucht. Weitere ab ${when}.`;
        default:
          return `Sie haben ${builds} vorerst verbraucht. Weitere ab ${when}.`;
      }
    },
  },
};
