/** Spanish texts of deploy, code host, repositories, plans and errors (the second half of the `es` pack). */
import type { AgentLabels } from '../../react/index.js';
import { plural } from '../plural.js';

const repositories = (count: string, value: number) =>
  plural('es', value, {
    one: `${count} repositorio`,
    many: `${count} de repositorios`,
    other: `${count} repositorios`,
  });

/** Part of `es`. */
export const integrations: Pick<
  AgentLabels,
  'deployButton' | 'codehostConnect' | 'repoPicker' | 'planList' | 'errors'
> = {
  deployButton: {
    providerNames: { vercel: 'Vercel', netlify: 'Netlify' },
    heading: () => 'Publicar en la web',
    signedOut: 'Inicia sesión para desplegar tu app.',
    loading: (provider) => `Comprobando tu conexión con ${provider}…`,
    connectedAs: (account) => `Conectado como ${account}`,
    connected: 'Conectado',
    notConnected: (provider) => `Todavía no estás conectado a ${provider}.`,
    expired: (provider) => `Tu conexión con ${provider} ha caducado. Vuelve a conectarte para desplegar.`,
    unknownProviderHint: 'No es posible desplegar en este proveedor.',
    loadErrorTitle: 'No se pudo comprobar tu conexión',
    retry: 'Reintentar',
    noProject: 'Primero genera una app y después despliégala.',
    building: 'Podrás desplegar cuando terminen de aplicarse los cambios.',
    deploy: (provider) => `Desplegar en ${provider}`,
    redeploy: 'Volver a desplegar',
    deploying: (provider) => `Desplegando en ${provider}…`,
    deployed: 'Desplegada',
    deploymentStatuses: {
      ready: 'En línea',
      building: 'Compilando',
      queued: 'En cola',
      error: 'Con errores',
      canceled: 'Cancelado',
    },
    connectFirst: (provider) => `Conecta tu cuenta de ${provider} para desplegar tu app.`,
    openDeployment: 'Abrir el despliegue',
    unsafeUrl: 'La dirección del despliegue no es una dirección web, así que no se muestra como enlace.',
    failedTitle: 'El despliegue falló',
    redeployFailedTitle: 'La nueva versión no se desplegó; el sitio sigue como estaba',
    connect: (provider) => `Conectar ${provider}`,
    reconnect: 'Usar otra cuenta',
    dialogTitle: (provider) => `Conectar ${provider}`,
    dialogDescription: (provider) =>
      `Crea un token de acceso en los ajustes de tu cuenta de ${provider} (busca «Tokens») y pégalo aquí. Se comprueba una sola vez y se guarda en tu cuenta, no en esta página.`,
    tokenLabel: (provider) => `Token de acceso de ${provider}`,
    tokenRequired: 'Introduce un token de acceso.',
    tokenRejected: 'Este token no se ha aceptado. Comprueba que esté completo y siga siendo válido y vuelve a pegarlo.',
    submit: 'Conectar',
    submitting: 'Conectando…',
    cancel: 'Cancelar',
    connectErrorTitle: 'No se aceptó el token',
  },
  codehostConnect: {
    regionLabel: 'Guardar el código en GitHub',
    heading: 'Guardar el código en GitHub',
    signedOut: 'Inicia sesión para conectar GitHub.',
    loading: 'Comprobando tu conexión con GitHub…',
    disconnected: 'Conecta GitHub para guardar el código de tu app en un repositorio.',
    connect: 'Conectar GitHub',
    reconnect: 'Volver a conectar',
    refresh: 'Actualizar',
    starting: 'Abriendo la página de instalación…',
    redirecting: 'Te llevamos a la página de instalación…',
    popupOpened: 'Termina la instalación en la ventana que se abrió. Esta página se actualizará cuando vuelvas.',
    connectedAs: (login) => `Conectado como ${login}`,
    connected: 'Conectado',
    expired: 'Tu conexión con GitHub ha caducado. Vuelve a conectar para seguir guardando tu código.',
    inactive: 'La app de GitHub no está activa en esta cuenta. Instálala de nuevo para continuar.',
    loginLabel: 'Cuenta',
    installationLabel: 'Instalación',
    connectedLabel: 'Conectado',
    updatedLabel: 'Actualizado',
    installationStatuses: { active: 'Activa', suspended: 'Suspendida', deleted: 'Eliminada' },
    installationUnknown: 'Desconocido',
    errorTitle: 'No se pudo conectar GitHub',
    loadErrorTitle: 'No se pudo comprobar tu conexión con GitHub',
  },
  repoPicker: {
    regionLabel: 'Repositorios',
    heading: 'Repositorio',
    signedOut: 'Inicia sesión para elegir un repositorio.',
    notConnected: 'Conecta GitHub para elegir un repositorio para tu código.',
    searchLabel: 'Buscar repositorios',
    searchPlaceholder: 'Filtrar por nombre',
    listLabel: 'Repositorios',
    loading: 'Cargando repositorios…',
    empty: 'Aún no hay repositorios. Crea uno abajo guardando tu código.',
    noMatches: (query) => `Ningún repositorio cargado coincide con «${query}».`,
    matchCount: (matches, loaded, counts) =>
      `${plural('es', counts.matches, { one: `Coincide ${matches}`, many: `Coinciden ${matches}`, other: `Coinciden ${matches}` })} de ${repositories(loaded, counts.loaded)} ${plural('es', counts.loaded, { one: 'cargado', many: 'cargados', other: 'cargados' })}.`,
    searchScope: (loaded, total) =>
      total === undefined
        ? `La búsqueda abarca solo los repositorios cargados hasta ahora (${loaded}).`
        : `La búsqueda abarca los ${loaded} de ${total} repositorios cargados hasta ahora.`,
    searchLoadMore: 'Cargar más para buscar',
    private: 'Privado',
    linkedBadge: 'Vinculado',
    public: 'Público',
    defaultBranch: (branch) => branch,
    pageStatus: (page, pages, total, totalCount) => `Página ${page} de ${pages} · ${repositories(total, totalCount)}`,
    loadedCount: (count, value) =>
      plural('es', value, {
        one: `${count} repositorio cargado`,
        many: `${count} de repositorios cargados`,
        other: `${count} repositorios cargados`,
      }),
    previousPage: 'Página anterior',
    nextPage: 'Página siguiente',
    loadMore: 'Cargar más',
    loadErrorTitle: 'No se pudieron cargar tus repositorios',
    pageErrorTitle: 'No se pudieron cargar más repositorios',
    noneSelected: 'Elige el repositorio para el código de esta app.',
    noProject: 'Primero crea una app y luego guarda aquí su código.',
    building: 'Podrás guardar el código cuando terminen de aplicarse los cambios.',
    link: (fullName) => `Usar ${fullName}`,
    linking: 'Eligiendo…',
    linkedTitle: (fullName) => `Tu código va a ${fullName}`,
    branchLabel: 'Rama',
    openRepository: (fullName) => `Abrir ${fullName}`,
    unsafeUrl: 'No es una dirección web',
    linkErrorTitle: 'No se pudo elegir ese repositorio',
    linkFailedTitle: (fullName) => `No se pudo elegir ${fullName}`,
    pushHeading: 'O guardar en un repositorio nuevo',
    pushTo: (fullName) => `Guardar el código en ${fullName}`,
    pushing: 'Guardando…',
    newRepositoryLabel: 'Nombre del repositorio nuevo',
    newRepositoryHint: 'Se crea en tu cuenta si todavía no existe. Para otro propietario, usa propietario/nombre.',
    newRepositoryRequired: 'Introduce un nombre de repositorio.',
    ownerUnknown: 'Conecta GitHub primero, o usa propietario/nombre.',
    pushNew: 'Crear y guardar',
    pushedCreated: (fullName) => `Se creó ${fullName} y se guardó tu código`,
    pushedExisting: (fullName) => `Tu código se guardó en ${fullName}`,
    pushErrorTitle: 'Tu código no se guardó',
  },
  planList: {
    regionLabel: 'Planes',
    heading: 'Planes',
    loading: 'Cargando planes…',
    empty: 'No hay planes disponibles.',
    errorTitle: 'No se pudieron cargar los planes',
    retry: 'Reintentar',
    free: 'Gratis',
    customPrice: 'Precio a medida',
    perMonth: (price) => `${price} al mes`,
    choose: (plan) => `Elegir ${plan}`,
  },
  errors: {
    kinds: {
      unauthorized: 'Esta función no está disponible ahora mismo. Avisa al responsable del sitio.',
      token_expired: 'Esta función necesita que el responsable del sitio la revise. Avísale, por favor.',
      suspended: 'Esta función está en pausa por ahora. Ponte en contacto con el responsable del sitio.',
      insufficient_credits: 'Te has quedado sin créditos. Compra más para continuar.',
      forbidden: 'No tienes acceso a esto. Pregunta al responsable del sitio si crees que deberías tenerlo.',
      not_found: 'No lo encontramos. Puede que se haya eliminado.',
      validation: 'Revisa lo que has introducido y vuelve a intentarlo.',
      rate_limited: 'Demasiadas solicitudes en poco tiempo. Espera un momento y vuelve a intentarlo.',
      conflict: 'Esto ha cambiado mientras tanto. Actualiza la página y vuelve a intentarlo.',
      upstream: 'Algo falló por nuestra parte. Vuelve a intentarlo en un momento.',
      network: 'No pudimos conectar con el servicio. Comprueba tu conexión y vuelve a intentarlo.',
      protocol: 'Recibimos una respuesta que no entendimos. Vuelve a intentarlo en un momento.',
      aborted: 'Cancelado.',
    },
    rateLimitedFor: (seconds) => `Demasiadas solicitudes en poco tiempo. Podrás volver a intentarlo en ${seconds} s.`,
    rateLimitOver: 'Ya puedes volver a intentarlo.',
    codes: {
      project_not_found: 'No se encontró este proyecto. Puede que se haya eliminado; empieza uno nuevo.',
      project_forbidden: 'Este proyecto no está disponible para ti. Empieza uno nuevo.',
      provider_not_found: 'No es posible desplegar en este proveedor.',
      account_taken: 'Esta cuenta de hosting ya está conectada a otra persona aquí. Usa un token de otra cuenta.',
      connection_not_found: 'Tu cuenta todavía no está conectada. Conéctala para continuar.',
    },
    connectionMissing: {
      deployment: 'Tu cuenta de hosting todavía no está conectada. Conéctala para desplegar.',
      deploymentConnection: 'Tu cuenta de hosting todavía no está conectada. Conéctala para desplegar.',
      codehostConnection: 'GitHub aún no está conectado. Conéctalo para continuar.',
      repositories: 'GitHub aún no está conectado. Conéctalo para ver tus repositorios.',
      repository: 'GitHub aún no está conectado. Conéctalo para guardar tu código.',
    },
    notFound: {
      project: 'No se encontró este proyecto. Puede que se haya eliminado; empieza uno nuevo.',
      generation: 'No se encontró este proyecto. Puede que se haya eliminado; empieza uno nuevo.',
      repository: 'No se encontró ese repositorio. Revisa su nombre o vuelve a conectar GitHub.',
    },
    conflict: {
      deploymentConnection:
        'Esta cuenta de hosting ya está conectada a otra persona aquí. Usa un token de otra cuenta.',
    },
    details: 'Detalles',
    retry: 'Reintentar',
    retryIn: (seconds) => `Reintentar en ${seconds} s`,
    quotaExceeded: (limit, period, when, limitCount) => {
      const builds = plural('es', limitCount, {
        one: `tu ${limit} creación`,
        many: `tus ${limit} de creaciones`,
        other: `tus ${limit} creaciones`,
      });
      switch (period) {
        case 'day':
          return `Ya usaste ${builds} de hoy. Podrás crear más a partir de ${when}.`;
        case 'week':
          return `Ya usaste ${builds} de esta semana. Podrás crear más a partir de ${when}.`;
        case 'month':
          return `Ya usaste ${builds} de este mes. Podrás crear más a partir de ${when}.`;
        default:
          return `Ya usaste ${builds} por ahora. Podrás crear más a partir de ${when}.`;
      }
    },
  },
};
