/** German texts of every component (`agent-embed/locales/de`), addressing the end user as „Sie“. */
import type { AgentLabels } from '../../react/index.js';
import { plural } from '../plural.js';
import { integrations } from './integrations.js';

/** The German pack: pass it as `labels={de}` or in `locales={{ de }}`. */
export const de: AgentLabels = {
  phase: {
    idle: 'Nicht gestartet',
    submitting: 'Wird gesendet',
    provisioning: 'Wird eingerichtet',
    generating: 'Wird gebaut',
    recovering: 'Verbindung wird wiederhergestellt',
    stopped: 'Nicht mehr verfolgt',
    ready: 'Bereit',
    failed: 'Fehlgeschlagen',
    credits_exhausted: 'Kein Guthaben mehr',
    interrupted: 'Verbindung verloren',
    gone: 'Nicht gefunden',
  },
  conversation: {
    regionLabel: 'Unterhaltung',
    empty: 'Beschreiben Sie die App, die Sie sich wünschen – sie entsteht dann hier.',
    you: 'Sie',
    generate: 'Neue App',
    followUp: 'Änderung',
    modeBuild: 'Bauen',
    modeDesign: 'Entwerfen',
    running: 'Wird bearbeitet …',
    outcome: (outcome, counts, values) => {
      const created = plural('de', values.created, {
        one: `${counts.created} neue Datei`,
        other: `${counts.created} neue Dateien`,
      });
      const changed = plural('de', values.modified, {
        one: `${counts.modified} geänderte Datei`,
        other: `${counts.modified} geänderte Dateien`,
      });
      const summary =
        values.modified === 0 ? created : values.created === 0 ? changed : `${created}, ${counts.modified} geändert`;
      switch (outcome.status) {
        case 'completed':
          if (values.created === 0 && values.modified === 0 && values.steps === 0) return 'Fertig.';
          return `Fertig: ${summary}, ${plural('de', values.steps, { one: `${counts.steps} Schritt`, other: `${counts.steps} Schritte` })}.`;
        case 'credits_exhausted':
          return `Abgebrochen, als das Guthaben aufgebraucht war – nach ${summary}.`;
        case 'failed':
          return `Der Build ist fehlgeschlagen – nach ${summary}.`;
        case 'interrupted':
          return 'Die Verbindung ist abgerissen, bevor der Build fertig war.';
        case 'stopped':
          return `Sie haben nach ${summary} aufgehört zu verfolgen. Der Build lief womöglich weiter.`;
        default:
          return outcome.status satisfies never;
      }
    },
  },
  projectList: {
    regionLabel: 'Ihre Projekte',
    heading: 'Ihre Projekte',
    loading: 'Ihre Projekte werden geladen …',
    empty: 'Sobald Sie eine App gebaut haben, finden Sie Ihre Projekte hier.',
    unavailable: 'Ihre früheren Projekte können hier nicht angezeigt werden.',
    errorTitle: 'Ihre Projekte konnten nicht geladen werden',
    untitled: 'App ohne Namen',
    updated: (status, time) => `${status} · ${time}`,
  },
  generatePanel: {
    heading: 'App erstellen',
    followUpHeading: 'App verfeinern',
    promptLabel: 'Beschreiben Sie die gewünschte App',
    followUpPromptLabel: 'Was soll sich ändern?',
    promptPlaceholder: 'Eine Buchungsseite für ein Yogastudio mit Kurskalender und Anmeldeformular',
    followUpPromptPlaceholder: 'Kopfzeile beim Scrollen fixieren und eine Kontaktseite hinzufügen',
    promptHint: 'Sagen Sie, wofür die App da ist, welche Seiten sie braucht und wie sie aussehen soll.',
    followUpPromptHint: 'Beschreiben Sie eine Änderung nach der anderen.',
    promptTooShort: 'Die Beschreibung muss mindestens 10 Zeichen lang sein.',
    modeLegend: 'Modus',
    modeBuild: 'Bauen',
    modeBuildDescription: 'Eine vollständige App mit Frontend und Backend.',
    modeDesign: 'Entwerfen',
    modeDesignDescription: 'Ein Entwurf mit Fokus auf das Frontend.',
    submit: 'Erstellen',
    followUpSubmit: 'Änderung senden',
    submitting: 'Wird bearbeitet …',
    cancel: 'Nicht mehr verfolgen',
    newProject: 'Neues Projekt',
    errorTitle: 'Ihre App konnte nicht gestartet werden',
    followUpErrorTitle: 'Ihre Änderung konnte nicht gesendet werden',
    connectionDroppedTitle: 'Die Verbindung ist abgebrochen',
    connectionDroppedHint: 'Falls Ihre App trotzdem schon gebaut wird, finden Sie sie unter Ihren Projekten.',
    followUpConnectionDroppedHint:
      'Ihre Änderung hat den Server vielleicht erreicht. Sehen Sie in Ihrer App nach, bevor Sie sie erneut senden.',
    buyCredits: 'Guthaben kaufen',
    followUpTarget: (projectName) => `Änderungen gehen an ${projectName}.`,
    unnamedProject: 'Ihre App',
    followUpWhenBuilt: 'Diese App wird gerade erstellt. Sobald sie fertig ist, können Sie eine Änderung senden.',
  },
  liveBuildLog: {
    regionLabel: 'Build-Fortschritt',
    heading: 'Build-Fortschritt',
    idle: 'Noch wird nichts gebaut.',
    progressLabel: 'Build-Fortschritt',
    progressValue: (percentage) => `${percentage} erledigt`,
    stages: {
      none: '',
      sending: 'Ihre Anfrage wird gesendet …',
      container: 'Für Ihre App wird eine Umgebung vorbereitet …',
      generating: 'Ihre App wird geschrieben …',
      done: 'Abgeschlossen.',
    },
    otherTool: 'Schritt',
    toolNames: {
      plan: 'Planen',
      write_files: 'Dateien schreiben',
      install_dependencies: 'Abhängigkeiten installieren',
      run_build: 'Bauen',
      run_tests: 'Testen',
      build: 'Bauen',
      read_context: 'Kontext lesen',
    },
    filesLabel: 'Erstellte Dateien',
    fileCount: (created, modified, total) =>
      modified === '0'
        ? plural('de', total, { one: `${created} neue Datei`, other: `${created} neue Dateien` })
        : created === '0'
          ? plural('de', total, { one: `${modified} geänderte Datei`, other: `${modified} geänderte Dateien` })
          : `${created} neue, ${modified} geänderte ${plural('de', total, { one: 'Datei', other: 'Dateien' })}`,
    fileCreated: 'neu',
    fileModified: 'geändert',
    toolsLabel: 'Schritte des Agenten',
    toolsOmitted: (count, value) =>
      plural('de', value, {
        one: `${count} früherer Schritt wird nicht angezeigt`,
        other: `${count} frühere Schritte werden nicht angezeigt`,
      }),
    unknownEvents: (count, value) =>
      plural('de', value, { one: `${count} weitere Meldung`, other: `${count} weitere Meldungen` }),
    completed: 'Ihre App ist fertig.',
    openApp: 'App öffnen',
    unsafeUrl: 'Die Adresse der App ist keine Webadresse und wird daher nicht als Link angezeigt.',
    creditsExhausted: 'Ihr Guthaben ist aufgebraucht.',
    creditsExhaustedHint: 'Kaufen Sie Guthaben nach, um weiterzubauen.',
    buyCredits: 'Guthaben kaufen',
    failed: 'Der Build ist fehlgeschlagen.',
    changeFailed: 'Die Änderung ist fehlgeschlagen.',
    recovering: 'Die Verbindung ist abgebrochen. Sie wird wiederhergestellt …',
    buildingElsewhere: 'Diese App wird gerade erstellt. Das Ergebnis erscheint hier, sobald sie fertig ist.',
    interrupted: 'Die Verbindung ist abgerissen, und wir konnten nicht herausfinden, wie der Build ausgegangen ist.',
    stopped: 'Sie verfolgen diesen Build nicht mehr.',
    stoppedHint: 'Er kann auf dem Server trotzdem fertig werden; das Ergebnis erscheint dann hier.',
    stoppedUnnamedHint: 'Wenn der Server die App trotzdem fertig baut, finden Sie sie unter Ihren Projekten.',
    checkingIn: (seconds) => `Neue Prüfung in ${seconds} s.`,
    announcements: {
      idle: '',
      submitting: 'Ihre Anfrage wird gesendet.',
      provisioning: 'Für Ihre App wird eine Umgebung vorbereitet.',
      generating: 'Ihre App wird geschrieben.',
      recovering: 'Verbindung abgebrochen. Sie wird wiederhergestellt.',
      stopped: 'Nicht mehr verfolgt. Der Build kann trotzdem fertig werden.',
      ready: 'Ihre App ist fertig.',
      credits_exhausted: 'Ihr Guthaben ist aufgebraucht.',
      failed: 'Der Build ist fehlgeschlagen.',
      interrupted: 'Die Verbindung ist abgerissen.',
      gone: 'Dieses Projekt wurde nicht gefunden.',
    },
  },
  projectStatus: {
    regionLabel: 'Projektstatus',
    heading: 'Projekt',
    noProject: 'Noch kein Projekt.',
    loading: 'Projektstatus wird geladen …',
    nameLabel: 'Name',
    statusLabel: 'Status',
    appLabel: 'App',
    openApp: 'App öffnen',
    unsafeUrl: 'Keine Webadresse',
    updatedLabel: 'Zuletzt aktualisiert',
    never: 'Noch nicht',
    paused: 'Solange diese Seite im Hintergrund ist, werden keine Updates abgerufen.',
    errorPrefix: 'Status konnte nicht geladen werden:',
  },
  appPreview: {
    regionLabel: 'App-Vorschau',
    frameTitle: 'Vorschau der erstellten App',
    empty: 'Hier erscheint Ihre App.',
    waiting: {
      idle: '',
      submitting: 'Ihre App erscheint hier, sobald sie gebaut ist.',
      provisioning: 'Ihre App erscheint hier, sobald sie gebaut ist.',
      generating: 'Ihre App erscheint hier, sobald sie gebaut ist.',
      recovering: 'Verbindung zu Ihrem Build wird wiederhergestellt …',
      stopped: 'Der Build kann auf dem Server noch fertig werden; dann erscheint die App hier.',
      ready: '',
      failed: 'Der Build wurde nicht fertig, daher gibt es nichts zu zeigen.',
      credits_exhausted: 'Der Build wurde abgebrochen, weil das Guthaben aufgebraucht war.',
      interrupted: 'Wir konnten nicht herausfinden, wie der Build ausgegangen ist.',
      gone: 'Dieses Projekt wurde nicht gefunden. Vielleicht wurde es entfernt; beginnen Sie ein neues.',
    },
    stoppedUnnamed: 'Wenn der Server die App trotzdem fertig baut, finden Sie sie unter Ihren Projekten.',
    unsafeUrl: 'Die Adresse der App ist keine Webadresse und kann daher nicht angezeigt werden.',
    updating: 'Ihre App wird aktualisiert …',
    reload: 'Neu laden',
    openInNewTab: 'App öffnen',
    devicesLabel: 'Vorschaubreite',
    mobile: 'Smartphone',
    tablet: 'Tablet',
    desktop: 'Desktop',
  },
  usageMeter: {
    left: (left, limit, period, limitCount) => {
      const base = `Noch ${left} von ${plural('de', limitCount, { one: `${limit} Erstellung`, other: `${limit} Erstellungen` })}`;
      switch (period) {
        case 'day':
          return `${base} für heute`;
        case 'week':
          return `${base} in dieser Woche`;
        case 'month':
          return `${base} in diesem Monat`;
        default:
          return base;
      }
    },
    moreAt: (when) => `Weitere ab ${when}`,
  },
  agentBuilder: {
    regionLabel: 'App-Builder',
    toolbarLabel: 'Projekt',
    buildLabel: 'Chat',
    resultLabel: 'Vorschau',
    shipLabel: 'Veröffentlichen',
    shipTitle: 'App veröffentlichen',
    plansLabel: 'Tarife',
    projectsLabel: 'Projekte',
    recentLabel: 'Projekt fortsetzen',
    allProjects: (count, formatted) =>
      plural('de', count, { one: `${formatted} Projekt anzeigen`, other: `Alle ${formatted} Projekte anzeigen` }),
    close: 'Schließen',
    newProject: 'Neues Projekt',
    newApp: 'Neue App',
    changeFailed: 'Letzte Änderung fehlgeschlagen',
    showDetails: 'Build-Details anzeigen',
    hideDetails: 'Build-Details ausblenden',
    tabs: { chat: 'Chat', preview: 'Vorschau', ship: 'Veröffentlichen' },
    appReady: 'Ihre App ist fertig.',
    seeApp: 'In der Vorschau ansehen',
  },
  ...integrations,
};
