/** Japanese texts of every component (`agent-embed/locales/ja`), in the polite style of product UI. */
import type { AgentLabels } from '../../react/index.js';
import { integrations } from './integrations.js';

/** The Japanese pack: pass it as `labels={ja}` or in `locales={{ ja }}`. Japanese has one form for every count. */
export const ja: AgentLabels = {
  phase: {
    idle: '未開始',
    submitting: '送信中',
    provisioning: '準備中',
    generating: 'ビルド中',
    recovering: '再接続中',
    stopped: '追跡を停止',
    ready: '完成',
    failed: '失敗',
    credits_exhausted: 'クレジット不足',
    interrupted: '接続が切れました',
    gone: '見つかりません',
  },
  conversation: {
    regionLabel: '会話',
    empty: '作りたいアプリを説明してください。ここで組み立てていきます。',
    you: 'あなた',
    generate: '新しいアプリ',
    followUp: '変更',
    modeBuild: 'ビルド',
    modeDesign: 'デザイン',
    running: '作業中…',
    outcome: (outcome, counts, values) => {
      const summary =
        values.modified === 0
          ? `新規ファイル ${counts.created} 件`
          : values.created === 0
            ? `変更ファイル ${counts.modified} 件`
            : `新規ファイル ${counts.created} 件、変更 ${counts.modified} 件`;
      switch (outcome.status) {
        case 'completed':
          if (values.created === 0 && values.modified === 0 && values.steps === 0) return '完了しました。';
          return `完了：${summary}、${counts.steps} ステップ。`;
        case 'credits_exhausted':
          return `${summary}の時点で、クレジットが尽きたため停止しました。`;
        case 'failed':
          return `${summary}の時点で、ビルドに失敗しました。`;
        case 'interrupted':
          return 'ビルドが終わる前に接続が切れました。';
        case 'stopped':
          return `${summary}の時点で追跡を停止しました。ビルドはその後も続いた可能性があります。`;
        default:
          return outcome.status satisfies never;
      }
    },
  },
  projectList: {
    regionLabel: 'プロジェクト一覧',
    heading: 'プロジェクト一覧',
    loading: 'プロジェクトを読み込んでいます…',
    empty: 'アプリを作成すると、ここにプロジェクトが表示されます。',
    unavailable: 'これまでのプロジェクトはここに表示できません。',
    errorTitle: 'プロジェクトを読み込めませんでした',
    untitled: '無題のアプリ',
    updated: (status, time) => `${status}・${time}`,
  },
  generatePanel: {
    heading: 'アプリを作成',
    followUpHeading: 'アプリを改良',
    promptLabel: '作りたいアプリを説明してください',
    followUpPromptLabel: '何を変更しますか？',
    promptPlaceholder: 'ヨガスタジオの予約サイト。レッスンカレンダーと申し込みフォーム付き',
    followUpPromptPlaceholder: 'ヘッダーを固定して、お問い合わせページを追加する',
    promptHint: '用途、必要なページ、希望するデザインの雰囲気を書いてください。',
    followUpPromptHint: '変更は一度に一つずつ伝えてください。',
    promptTooShort: '説明は 10 文字以上で入力してください。',
    modeLegend: 'モード',
    modeBuild: 'ビルド',
    modeBuildDescription: 'フルスタックのアプリ。',
    modeDesign: 'デザイン',
    modeDesignDescription: 'フロントエンド中心のデザイン。',
    submit: '生成する',
    followUpSubmit: '変更を送信',
    submitting: '作業中…',
    cancel: '追跡を停止',
    newProject: '新しいプロジェクト',
    errorTitle: 'アプリの作成を開始できませんでした',
    followUpErrorTitle: '変更を送信できませんでした',
    connectionDroppedTitle: '接続が切れました',
    connectionDroppedHint: 'それでもアプリのビルドが始まっていれば、プロジェクト一覧に表示されます。',
    followUpConnectionDroppedHint:
      '変更はサーバーに届いている可能性があります。もう一度送信する前にアプリを確認してください。',
    buyCredits: 'クレジットを購入',
    followUpTarget: (projectName) => `変更は「${projectName}」に反映されます。`,
    unnamedProject: 'あなたのアプリ',
    followUpWhenBuilt: 'このアプリはビルド中です。完了したら変更を送信できます。',
  },
  liveBuildLog: {
    regionLabel: 'ビルドの進捗',
    heading: 'ビルドの進捗',
    idle: 'まだ何もビルドしていません。',
    progressLabel: 'ビルドの進捗',
    progressValue: (percentage) => `${percentage} 完了`,
    stages: {
      none: '',
      sending: 'リクエストを送信しています…',
      container: 'アプリの実行環境を準備しています…',
      generating: 'アプリを作成しています…',
      done: '完了しました。',
    },
    otherTool: 'ステップ',
    toolNames: {
      plan: '計画',
      write_files: 'ファイルの作成',
      install_dependencies: '依存関係のインストール',
      run_build: 'ビルド',
      run_tests: 'テスト',
      build: 'ビルド',
      read_context: 'コンテキストの読み込み',
    },
    filesLabel: '生成されたファイル',
    fileCount: (created, modified) =>
      modified === '0'
        ? `新規ファイル ${created} 件`
        : created === '0'
          ? `変更したファイル ${modified} 件`
          : `新規 ${created} 件・変更 ${modified} 件のファイル`,
    fileCreated: '新規',
    fileModified: '変更',
    toolsLabel: 'エージェントのステップ',
    toolsOmitted: (count) => `それ以前の ${count} ステップは省略しています`,
    unknownEvents: (count) => `その他の更新 ${count} 件`,
    completed: 'アプリが完成しました。',
    openApp: 'アプリを開く',
    unsafeUrl: 'アプリのアドレスが Web アドレスではないため、リンクとして表示していません。',
    creditsExhausted: 'クレジットがなくなりました。',
    creditsExhaustedHint: 'ビルドを続けるには、クレジットを購入してください。',
    buyCredits: 'クレジットを購入',
    failed: 'ビルドに失敗しました。',
    changeFailed: '変更に失敗しました。',
    recovering: '接続が切れました。ビルドに再接続しています…',
    buildingElsewhere: 'このアプリはビルド中です。完了すると、結果がここに表示されます。',
    interrupted: '接続が切れたため、ビルドの結果を確認できませんでした。',
    stopped: 'このビルドの追跡を停止しました。',
    stoppedHint: 'ビルドはサーバー上で完了する場合があります。完了すると、結果がここに表示されます。',
    stoppedUnnamedHint: 'サーバー上でビルドが完了した場合、アプリはプロジェクト一覧に表示されます。',
    checkingIn: (seconds) => `${seconds} 秒後にもう一度確認します。`,
    announcements: {
      idle: '',
      submitting: 'リクエストを送信しています。',
      provisioning: 'アプリの実行環境を準備しています。',
      generating: 'アプリを作成しています。',
      recovering: '接続が切れました。ビルドに再接続しています。',
      stopped: '追跡を停止しました。ビルドは完了する場合があります。',
      ready: 'アプリが完成しました。',
      credits_exhausted: 'クレジットがなくなりました。',
      failed: 'ビルドに失敗しました。',
      interrupted: '接続が切れました。',
      gone: 'このプロジェクトが見つかりませんでした。',
    },
  },
  projectStatus: {
    regionLabel: 'プロジェクトの状態',
    heading: 'プロジェクト',
    noProject: 'プロジェクトはまだありません。',
    loading: 'プロジェクトの状態を読み込んでいます…',
    nameLabel: '名前',
    statusLabel: '状態',
    appLabel: 'アプリ',
    openApp: 'アプリを開く',
    unsafeUrl: 'Web アドレスではありません',
    updatedLabel: '最終更新',
    never: 'まだありません',
    paused: 'このページが非表示の間は、更新を一時停止しています。',
    errorPrefix: '状態を読み込めませんでした：',
  },
  appPreview: {
    regionLabel: 'アプリのプレビュー',
    frameTitle: '生成されたアプリのプレビュー',
    empty: 'ここにアプリが表示されます。',
    waiting: {
      idle: '',
      submitting: 'ビルドが終わると、ここにアプリが表示されます。',
      provisioning: 'ビルドが終わると、ここにアプリが表示されます。',
      generating: 'ビルドが終わると、ここにアプリが表示されます。',
      recovering: 'ビルドに再接続しています…',
      stopped: 'ビルドはサーバー上で完了する場合があります。完了すると、ここに表示されます。',
      ready: '',
      failed: 'ビルドが完了しなかったため、表示できるものがありません。',
      credits_exhausted: 'クレジットが尽きたため、ビルドが停止しました。',
      interrupted: 'ビルドの結果を確認できませんでした。',
      gone: 'このプロジェクトが見つかりませんでした。削除された可能性があります。新しく始めてください。',
    },
    stoppedUnnamed: 'サーバー上でビルドが完了した場合、アプリはプロジェクト一覧に表示されます。',
    unsafeUrl: 'アプリのアドレスが Web アドレスではないため、プレビューできません。',
    updating: 'アプリを更新しています…',
    reload: '再読み込み',
    openInNewTab: 'アプリを開く',
    devicesLabel: 'プレビューの幅',
    mobile: 'モバイル',
    tablet: 'タブレット',
    desktop: 'デスクトップ',
  },
  usageMeter: {
    left: (left, limit, period) => {
      switch (period) {
        case 'day':
          return `本日の残り ${left} / ${limit} 回`;
        case 'week':
          return `今週の残り ${left} / ${limit} 回`;
        case 'month':
          return `今月の残り ${left} / ${limit} 回`;
        default:
          return `残り ${left} / ${limit} 回`;
      }
    },
    moreAt: (when) => `${when} から再び作成できます`,
  },
  agentBuilder: {
    regionLabel: 'アプリビルダー',
    toolbarLabel: 'プロジェクト',
    buildLabel: 'チャット',
    resultLabel: 'プレビュー',
    shipLabel: '公開',
    shipTitle: 'アプリを公開',
    plansLabel: 'プラン',
    projectsLabel: 'プロジェクト',
    recentLabel: 'プロジェクトを続ける',
    allProjects: (_count, formatted) => `すべてのプロジェクト（${formatted} 件）`,
    close: '閉じる',
    newProject: '新しいプロジェクト',
    newApp: '新しいアプリ',
    changeFailed: '直前の変更に失敗',
    showDetails: 'ビルドの詳細を表示',
    hideDetails: 'ビルドの詳細を隠す',
    tabs: { chat: 'チャット', preview: 'プレビュー', ship: '公開' },
    appReady: 'アプリの準備ができました。',
    seeApp: 'プレビューで見る',
  },
  ...integrations,
};
