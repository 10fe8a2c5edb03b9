/** Spanish texts of every component (`agent-embed/locales/es`), addressing the end user as «tú». */
import type { AgentLabels } from '../../react/index.js';
import { plural } from '../plural.js';
import { integrations } from './integrations.js';

/** The Spanish pack: pass it as `labels={es}` or in `locales={{ es }}`. */
export const es: AgentLabels = {
  phase: {
    idle: 'Sin empezar',
    submitting: 'Enviando',
    provisioning: 'Preparando',
    generating: 'Construyendo',
    recovering: 'Reconectando',
    stopped: 'Ya no se sigue',
    ready: 'Lista',
    failed: 'Falló',
    credits_exhausted: 'Sin créditos',
    interrupted: 'Conexión perdida',
    gone: 'No encontrado',
  },
  conversation: {
    regionLabel: 'Conversación',
    empty: 'Describe la app que quieres y se construirá aquí.',
    you: 'Tú',
    generate: 'Nueva app',
    followUp: 'Cambio',
    modeBuild: 'Construir',
    modeDesign: 'Diseñar',
    running: 'Trabajando en ello…',
    outcome: (outcome, counts, values) => {
      const created = plural('es', values.created, {
        one: `${counts.created} archivo nuevo`,
        many: `${counts.created} de archivos nuevos`,
        other: `${counts.created} archivos nuevos`,
      });
      const summary =
        values.modified === 0
          ? created
          : values.created === 0
            ? plural('es', values.modified, {
                one: `${counts.modified} archivo modificado`,
                many: `${counts.modified} de archivos modificados`,
                other: `${counts.modified} archivos modificados`,
              })
            : `${created}, ${counts.modified} ${plural('es', values.modified, { one: 'modificado', many: 'modificados', other: 'modificados' })}`;
      switch (outcome.status) {
        case 'completed':
          if (values.created === 0 && values.modified === 0 && values.steps === 0) return 'Listo.';
          return `Listo: ${summary}, ${plural('es', values.steps, { one: `${counts.steps} paso`, many: `${counts.steps} de pasos`, other: `${counts.steps} pasos` })}.`;
        case 'credits_exhausted':
          return `Se detuvo al agotarse los créditos, tras ${summary}.`;
        case 'failed':
          return `La compilación falló tras ${summary}.`;
        case 'interrupted':
          return 'Se perdió la conexión antes de que terminara la compilación.';
        case 'stopped':
          return `Dejaste de seguirla tras ${summary}. Es posible que la compilación haya continuado.`;
        default:
          return outcome.status satisfies never;
      }
    },
  },
  projectList: {
    regionLabel: 'Tus proyectos',
    heading: 'Tus proyectos',
    loading: 'Cargando tus proyectos…',
    empty: 'Tus proyectos aparecerán aquí cuando hayas construido uno.',
    unavailable: 'Tus proyectos anteriores no se pueden mostrar aquí.',
    errorTitle: 'No se pudieron cargar tus proyectos',
    untitled: 'App sin nombre',
    updated: (status, time) => `${status} · ${time}`,
  },
  generatePanel: {
    heading: 'Crear una app',
    followUpHeading: 'Mejora tu app',
    promptLabel: 'Describe la app que quieres',
    followUpPromptLabel: '¿Qué quieres cambiar?',
    promptPlaceholder:
      'Un sitio de reservas para un estudio de yoga con calendario de clases y formulario de inscripción',
    followUpPromptPlaceholder: 'Fija la cabecera al desplazarse y añade una página de contacto',
    promptHint: 'Cuenta para qué sirve, qué páginas necesita y qué aspecto quieres.',
    followUpPromptHint: 'Describe un cambio cada vez.',
    promptTooShort: 'La descripción debe tener al menos 10 caracteres.',
    modeLegend: 'Modo',
    modeBuild: 'Construir',
    modeBuildDescription: 'Una app completa, con frontend y backend.',
    modeDesign: 'Diseñar',
    modeDesignDescription: 'Un diseño centrado en el frontend.',
    submit: 'Generar',
    followUpSubmit: 'Enviar cambio',
    submitting: 'Trabajando…',
    cancel: 'Dejar de seguir',
    newProject: 'Nuevo proyecto',
    errorTitle: 'No se pudo iniciar tu app',
    followUpErrorTitle: 'No se pudo enviar tu cambio',
    connectionDroppedTitle: 'Se cortó la conexión',
    connectionDroppedHint: 'Si tu app empezó a construirse igualmente, aparecerá entre tus proyectos.',
    followUpConnectionDroppedHint:
      'Puede que tu cambio haya llegado al servidor. Revisa tu app antes de enviarlo de nuevo.',
    buyCredits: 'Comprar créditos',
    followUpTarget: (projectName) => `Los cambios se aplican a ${projectName}.`,
    unnamedProject: 'tu app',
    followUpWhenBuilt: 'Esta app se está creando. Podrás enviar un cambio cuando esté lista.',
  },
  liveBuildLog: {
    regionLabel: 'Progreso de la compilación',
    heading: 'Progreso de la compilación',
    idle: 'Todavía no se está construyendo nada.',
    progressLabel: 'Progreso de la compilación',
    progressValue: (percentage) => `${percentage} completado`,
    stages: {
      none: '',
      sending: 'Enviando tu solicitud…',
      container: 'Preparando un espacio para tu app…',
      generating: 'Escribiendo tu app…',
      done: 'Terminado.',
    },
    otherTool: 'Paso',
    toolNames: {
      plan: 'Planificando',
      write_files: 'Escribiendo archivos',
      install_dependencies: 'Instalando dependencias',
      run_build: 'Compilando',
      run_tests: 'Probando',
      build: 'Compilando',
      read_context: 'Leyendo el contexto',
    },
    filesLabel: 'Archivos generados',
    fileCount: (created, modified, total) =>
      modified === '0'
        ? plural('es', total, {
            one: `${created} archivo nuevo`,
            many: `${created} de archivos nuevos`,
            other: `${created} archivos nuevos`,
          })
        : created === '0'
          ? plural('es', total, {
              one: `${modified} archivo modificado`,
              many: `${modified} de archivos modificados`,
              other: `${modified} archivos modificados`,
            })
          : `Archivos nuevos: ${created} · modificados: ${modified}`,
    fileCreated: 'nuevo',
    fileModified: 'modificado',
    toolsLabel: 'Pasos del agente',
    toolsOmitted: (count, value) =>
      plural('es', value, {
        one: `${count} paso anterior no se muestra`,
        many: `${count} de pasos anteriores no se muestran`,
        other: `${count} pasos anteriores no se muestran`,
      }),
    unknownEvents: (count, value) =>
      plural('es', value, {
        one: `${count} actualización más`,
        many: `${count} de actualizaciones más`,
        other: `${count} actualizaciones más`,
      }),
    completed: 'Tu app está lista.',
    openApp: 'Abrir la app',
    unsafeUrl: 'La dirección de la app no es una dirección web, así que no se muestra como enlace.',
    creditsExhausted: 'Se te acabaron los créditos.',
    creditsExhaustedHint: 'Compra más créditos para seguir construyendo.',
    buyCredits: 'Comprar créditos',
    failed: 'La compilación falló.',
    changeFailed: 'El cambio falló.',
    recovering: 'Se cortó la conexión. Reconectando con tu compilación…',
    buildingElsewhere: 'Esta app se está creando. El resultado aparecerá aquí cuando esté lista.',
    interrupted: 'Se perdió la conexión y no pudimos saber cómo terminó la compilación.',
    stopped: 'Dejaste de seguir esta compilación.',
    stoppedHint: 'Puede terminar igualmente en el servidor; si lo hace, el resultado aparecerá aquí.',
    stoppedUnnamedHint: 'Si el servidor termina la app igualmente, estará entre tus proyectos.',
    checkingIn: (seconds) => `Volveremos a comprobarlo en ${seconds} s.`,
    announcements: {
      idle: '',
      submitting: 'Enviando tu solicitud.',
      provisioning: 'Preparando un espacio para tu app.',
      generating: 'Escribiendo tu app.',
      recovering: 'Se cortó la conexión. Reconectando con tu compilación.',
      stopped: 'Ya no la sigues. La compilación aún puede terminar.',
      ready: 'Tu app está lista.',
      credits_exhausted: 'Se te acabaron los créditos.',
      failed: 'La compilación falló.',
      interrupted: 'Se perdió la conexión.',
      gone: 'No se encontró este proyecto.',
    },
  },
  projectStatus: {
    regionLabel: 'Estado del proyecto',
    heading: 'Proyecto',
    noProject: 'Todavía no hay ningún proyecto.',
    loading: 'Cargando el estado del proyecto…',
    nameLabel: 'Nombre',
    statusLabel: 'Estado',
    appLabel: 'App',
    openApp: 'Abrir la app',
    unsafeUrl: 'No es una dirección web',
    updatedLabel: 'Última actualización',
    never: 'Todavía no',
    paused: 'Las actualizaciones se pausan mientras esta página está oculta.',
    errorPrefix: 'No se pudo cargar el estado:',
  },
  appPreview: {
    regionLabel: 'Vista previa de la app',
    frameTitle: 'Vista previa de la app generada',
    empty: 'Tu app aparecerá aquí.',
    waiting: {
      idle: '',
      submitting: 'Tu app aparecerá aquí cuando esté construida.',
      provisioning: 'Tu app aparecerá aquí cuando esté construida.',
      generating: 'Tu app aparecerá aquí cuando esté construida.',
      recovering: 'Reconectando con tu compilación…',
      stopped: 'La compilación aún puede terminar en el servidor; si lo hace, aparecerá aquí.',
      ready: '',
      failed: 'La compilación no terminó, así que no hay nada que mostrar.',
      credits_exhausted: 'La compilación se detuvo al agotarse los créditos.',
      interrupted: 'No pudimos saber cómo terminó la compilación.',
      gone: 'No se encontró este proyecto. Puede que se haya eliminado; empieza uno nuevo.',
    },
    stoppedUnnamed: 'Si el servidor termina la app igualmente, estará entre tus proyectos.',
    unsafeUrl: 'La dirección de la app no es una dirección web, así que no se puede previsualizar.',
    updating: 'Actualizando tu app…',
    reload: 'Recargar',
    openInNewTab: 'Abrir la app',
    devicesLabel: 'Ancho de la vista previa',
    mobile: 'Móvil',
    tablet: 'Tableta',
    desktop: 'Escritorio',
  },
  usageMeter: {
    left: (left, limit, period, limitCount) => {
      const base = `Te quedan ${left} de ${plural('es', limitCount, { one: `${limit} creación`, many: `${limit} de creaciones`, other: `${limit} creaciones` })}`;
      switch (period) {
        case 'day':
          return `${base} hoy`;
        case 'week':
          return `${base} esta semana`;
        case 'month':
          return `${base} este mes`;
        default:
          return base;
      }
    },
    moreAt: (when) => `Podrás crear más a partir de ${when}`,
  },
  agentBuilder: {
    regionLabel: 'Creador de apps',
    toolbarLabel: 'Proyecto',
    buildLabel: 'Chat',
    resultLabel: 'Vista previa',
    shipLabel: 'Publicar',
    shipTitle: 'Publica tu app',
    plansLabel: 'Planes',
    projectsLabel: 'Proyectos',
    recentLabel: 'Continuar un proyecto',
    allProjects: (count, formatted) =>
      plural('es', count, {
        one: `Ver ${formatted} proyecto`,
        many: `Ver los ${formatted} de proyectos`,
        other: `Ver los ${formatted} proyectos`,
      }),
    close: 'Cerrar',
    newProject: 'Nuevo proyecto',
    newApp: 'Nueva app',
    changeFailed: 'El último cambio falló',
    showDetails: 'Mostrar detalles de la compilación',
    hideDetails: 'Ocultar detalles de la compilación',
    tabs: { chat: 'Chat', preview: 'Vista previa', ship: 'Publicar' },
    appReady: 'Tu app está lista.',
    seeApp: 'Verla en la vista previa',
  },
  ...integrations,
};
