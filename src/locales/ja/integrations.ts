/** Japanese texts of deploy, code host, repositories, plans and errors (the second half of the `ja` pack). */
import type { AgentLabels } from '../../react/index.js';

/** Part of `ja`. */
export const integrations: Pick<
  AgentLabels,
  'deployButton' | 'codehostConnect' | 'repoPicker' | 'planList' | 'errors'
> = {
  deployButton: {
    providerNames: { vercel: 'Vercel', netlify: 'Netlify' },
    heading: (provider) => `${provider} にデプロイ`,
    signedOut: 'アプリをデプロイするにはサインインしてください。',
    loading: (provider) => `${provider} との接続を確認しています…`,
    connectedAs: (account) => `${account} として接続済み`,
    notConnected: (provider) => `${provider} にはまだ接続していません。`,
    expired: (provider) => `${provider} との接続の有効期限が切れました。デプロイするには、もう一度接続してください。`,
    unknownProviderHint: 'このサービスへのデプロイには対応していません。',
    loadErrorTitle: '接続を確認できませんでした',
    retry: '再試行',
    noProject: 'まずアプリを生成してから、デプロイしてください。',
    deploy: (provider) => `${provider} にデプロイ`,
    redeploy: '再デプロイ',
    deploying: (provider) => `${provider} にデプロイしています…`,
    deployed: 'デプロイ済み',
    deploymentStatuses: {
      ready: '公開中',
      building: 'ビルド中',
      queued: '待機中',
      error: '失敗',
      canceled: 'キャンセル済み',
    },
    connectFirst: (provider) => `アプリをデプロイするには、${provider} アカウントを接続してください。`,
    openDeployment: 'デプロイ先を開く',
    unsafeUrl: 'デプロイ先のアドレスが Web アドレスではないため、リンクとして表示していません。',
    failedTitle: 'デプロイに失敗しました',
    connect: (provider) => `${provider} に接続`,
    reconnect: '別のアカウントを使う',
    dialogTitle: (provider) => `${provider} に接続`,
    dialogDescription: (provider) =>
      `${provider} のアカウント設定（「Tokens」）でアクセストークンを作成し、ここに貼り付けてください。確認は一度だけで、このページではなくあなたのアカウントに保存されます。`,
    tokenLabel: (provider) => `${provider} のアクセストークン`,
    tokenRequired: 'アクセストークンを入力してください。',
    submit: '接続',
    submitting: '接続しています…',
    cancel: 'キャンセル',
    connectErrorTitle: 'トークンが受け付けられませんでした',
  },
  codehostConnect: {
    regionLabel: 'コードホスティング',
    heading: 'コードホスティング',
    signedOut: 'コードホスティングに接続するにはサインインしてください。',
    loading: 'コードホスティングとの接続を確認しています…',
    disconnected: 'GitHub に接続すると、アプリのコードをリポジトリに保存できます。',
    connect: 'GitHub に接続',
    reconnect: 'もう一度接続',
    refresh: '更新',
    starting: 'インストールページを開いています…',
    redirecting: 'インストールページに移動しています…',
    popupOpened: '開いたウィンドウでインストールを完了してください。戻ってくると、このページが更新されます。',
    connectedAs: (login) => `${login} として接続済み`,
    expired:
      'コードホスティングとの接続の有効期限が切れました。コードのプッシュを続けるには、もう一度接続してください。',
    inactive:
      'このアカウントではコードホスティングのアプリが有効になっていません。続けるには、もう一度インストールしてください。',
    loginLabel: 'アカウント',
    installationLabel: 'インストール',
    connectedLabel: '接続日時',
    updatedLabel: '更新日時',
    installationStatuses: { active: '有効', suspended: '停止中', deleted: '削除済み' },
    installationUnknown: '不明',
    errorTitle: 'コードホスティングに接続できませんでした',
    loadErrorTitle: 'コードホスティングを確認できませんでした',
  },
  repoPicker: {
    regionLabel: 'リポジトリ',
    heading: 'リポジトリ',
    signedOut: 'リポジトリを選ぶにはサインインしてください。',
    notConnected: 'GitHub に接続すると、リポジトリを選んでコードをプッシュできます。',
    searchLabel: 'リポジトリを検索',
    searchPlaceholder: '名前で絞り込む',
    listLabel: 'リポジトリ一覧',
    loading: 'リポジトリを読み込んでいます…',
    empty: 'リポジトリはまだありません。下からコードをプッシュすると作成できます。',
    noMatches: (query) => `読み込み済みのリポジトリに「${query}」と一致するものはありません。`,
    matchCount: (matches, loaded) => `読み込み済みの ${loaded} 件中 ${matches} 件が一致しました。`,
    searchScope: (loaded, total) =>
      total === undefined
        ? `これまでに読み込んだ ${loaded} 件のリポジトリを検索しています。`
        : `全 ${total} 件のうち、これまでに読み込んだ ${loaded} 件を検索しています。`,
    searchLoadMore: 'さらに読み込んで検索',
    private: '非公開',
    public: '公開',
    defaultBranch: (branch) => branch,
    pageStatus: (page, pages, total) => `${page} / ${pages} ページ・リポジトリ ${total} 件`,
    loadedCount: (count) => `${count} 件のリポジトリを読み込みました`,
    previousPage: '前のページ',
    nextPage: '次のページ',
    loadMore: 'さらに読み込む',
    loadErrorTitle: 'リポジトリを読み込めませんでした',
    pageErrorTitle: '続きのリポジトリを読み込めませんでした',
    noneSelected: 'このアプリと連携するリポジトリを選んでください。',
    noProject: '連携やプッシュをするには、まずアプリを生成してください。',
    link: (fullName) => `${fullName} と連携`,
    linking: '連携しています…',
    linkedTitle: (fullName) => `${fullName} と連携済み`,
    branchLabel: 'ブランチ',
    openRepository: (fullName) => `${fullName} を開く`,
    unsafeUrl: 'Web アドレスではありません',
    linkErrorTitle: 'リポジトリと連携できませんでした',
    pushHeading: 'コードをプッシュ',
    pushTo: (fullName) => `${fullName} にプッシュ`,
    pushing: 'プッシュしています…',
    newRepositoryLabel: '新しいリポジトリの名前',
    newRepositoryHint:
      'まだない場合は、あなたのアカウントに作成されます。別のオーナーの場合は「オーナー/名前」と入力してください。',
    newRepositoryRequired: 'リポジトリ名を入力してください。',
    ownerUnknown: '先にコードホスティングに接続するか、「オーナー/名前」で入力してください。',
    pushNew: '作成してプッシュ',
    pushedCreated: (fullName) => `${fullName} を作成し、コードをプッシュしました`,
    pushedExisting: (fullName) => `${fullName} にコードをプッシュしました`,
    pushErrorTitle: 'コードをプッシュできませんでした',
  },
  planList: {
    regionLabel: 'プラン',
    heading: 'プラン',
    loading: 'プランを読み込んでいます…',
    empty: '利用できるプランはありません。',
    errorTitle: 'プランを読み込めませんでした',
    retry: '再試行',
    free: '無料',
    customPrice: '個別見積もり',
    perMonth: (price) => `月額 ${price}`,
    choose: (plan) => `${plan} を選択`,
  },
  errors: {
    kinds: {
      unauthorized: 'この機能は現在ご利用いただけません。サイトの運営者にお知らせください。',
      token_expired: 'この機能はサイトの運営者による対応が必要です。運営者にお知らせください。',
      suspended: 'この機能は現在一時停止しています。サイトの運営者にお問い合わせください。',
      insufficient_credits: 'クレジットがなくなりました。続けるには、クレジットを購入してください。',
      forbidden: 'これにアクセスする権限がありません。必要な場合は、サイトの運営者にお問い合わせください。',
      not_found: '見つかりませんでした。削除された可能性があります。',
      validation: '入力内容を確認して、もう一度お試しください。',
      rate_limited: '短時間にリクエストが集中しています。少し待ってから、もう一度お試しください。',
      conflict: 'その間に内容が変更されました。更新してから、もう一度お試しください。',
      upstream: 'こちら側で問題が発生しました。しばらくしてから、もう一度お試しください。',
      network: 'サービスに接続できませんでした。接続を確認して、もう一度お試しください。',
      protocol: '想定外の応答を受け取りました。しばらくしてから、もう一度お試しください。',
      aborted: 'キャンセルしました。',
    },
    rateLimitedFor: (seconds) => `短時間にリクエストが集中しています。${seconds} 秒後に再試行できます。`,
    rateLimitOver: 'もう一度お試しいただけます。',
    codes: {
      project_not_found: 'このプロジェクトが見つかりませんでした。削除された可能性があります。新しく始めてください。',
      project_forbidden: 'このプロジェクトは利用できません。新しく始めてください。',
      provider_not_found: 'このサービスへのデプロイには対応していません。',
      account_taken:
        'このホスティングアカウントは、ここで既に別の人に接続されています。別のアカウントのトークンを使ってください。',
      connection_not_found: 'アカウントがまだ接続されていません。続けるには接続してください。',
    },
    connectionMissing: {
      deployment: 'ホスティングアカウントがまだ接続されていません。デプロイするには接続してください。',
      deploymentConnection: 'ホスティングアカウントがまだ接続されていません。デプロイするには接続してください。',
      codehostConnection: 'コードホスティングがまだ接続されていません。続けるには接続してください。',
      repositories: 'コードホスティングがまだ接続されていません。リポジトリを表示するには接続してください。',
      repository: 'コードホスティングがまだ接続されていません。連携やプッシュをするには接続してください。',
    },
    notFound: {
      project: 'このプロジェクトが見つかりませんでした。削除された可能性があります。新しく始めてください。',
      generation: 'このプロジェクトが見つかりませんでした。削除された可能性があります。新しく始めてください。',
      repository:
        'そのリポジトリが見つかりませんでした。名前を確認するか、コードホスティングにもう一度接続してください。',
    },
    conflict: {
      deploymentConnection:
        'このホスティングアカウントは、ここで既に別の人に接続されています。別のアカウントのトークンを使ってください。',
    },
    details: '詳細',
    retry: '再試行',
    retryIn: (seconds) => `${seconds} 秒後に再試行`,
    quotaExceeded: (limit, period, when) => {
      switch (period) {
        case 'day':
          return `本日の作成回数（${limit} 回）をすべて使いました。${when} から再び作成できます。`;
        case 'week':
          return `今週の作成回数（${limit} 回）をすべて使いました。${when} から再び作成できます。`;
        case 'month':
          return `今月の作成回数（${limit} 回）をすべて使いました。${when} から再び作成できます。`;
        default:
          return `現在の作成回数（${limit} 回）をすべて使いました。${when} から再び作成できます。`;
      }
    },
  },
};
