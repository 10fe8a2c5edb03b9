/** Arabic texts of every component (`agent-embed/locales/ar`), in Modern Standard Arabic; the provider lays them out right to left. */
import type { AgentLabels } from '../../react/index.js';
import { changedFiles, counted, newFiles, steps, updates } from './counted.js';
import { integrations } from './integrations.js';

/** The Arabic pack: pass it as `labels={ar}` or in `locales={{ ar }}` (with `locale="ar"`, the root gets `dir="rtl"`). */
export const ar: AgentLabels = {
  phase: {
    idle: 'لم يبدأ',
    submitting: 'جارٍ الإرسال',
    provisioning: 'جارٍ التجهيز',
    generating: 'جارٍ البناء',
    recovering: 'جارٍ إعادة الاتصال',
    stopped: 'توقفت المتابعة',
    ready: 'جاهز',
    failed: 'فشل',
    credits_exhausted: 'نفد الرصيد',
    interrupted: 'انقطع الاتصال',
    gone: 'غير موجود',
  },
  conversation: {
    regionLabel: 'المحادثة',
    empty: 'صِف التطبيق الذي تريده، وسيُبنى هنا.',
    you: 'أنت',
    generate: 'تطبيق جديد',
    followUp: 'تعديل',
    modeBuild: 'بناء',
    modeDesign: 'تصميم',
    running: 'جارٍ العمل على ذلك…',
    outcome: (outcome, counts, values) => {
      const created = counted(values.created, counts.created, newFiles);
      const changed = counted(values.modified, counts.modified, changedFiles);
      const summary = values.modified === 0 ? created : values.created === 0 ? changed : `${created} و${changed}`;
      switch (outcome.status) {
        case 'completed':
          if (values.created === 0 && values.modified === 0 && values.steps === 0) return 'تم.';
          return `تم: ${summary}، ${counted(values.steps, counts.steps, steps)}.`;
        case 'credits_exhausted':
          return `توقف البناء عند نفاد الرصيد، بعد ${summary}.`;
        case 'failed':
          return `فشل البناء بعد ${summary}.`;
        case 'interrupted':
          return 'انقطع الاتصال قبل انتهاء البناء.';
        case 'stopped':
          return `أوقفت المتابعة بعد ${summary}. ربما استمر البناء.`;
        default:
          return outcome.status satisfies never;
      }
    },
  },
  projectList: {
    regionLabel: 'مشاريعك',
    heading: 'مشاريعك',
    loading: 'جارٍ تحميل مشاريعك…',
    empty: 'ستظهر مشاريعك هنا بعد أن تبني أول تطبيق.',
    unavailable: 'لا يمكن عرض مشاريعك السابقة هنا.',
    errorTitle: 'تعذّر تحميل مشاريعك',
    untitled: 'تطبيق بلا اسم',
    updated: (status, time) => `${status} · ${time}`,
  },
  generatePanel: {
    heading: 'أنشئ تطبيقًا',
    followUpHeading: 'حسِّن تطبيقك',
    promptLabel: 'صِف التطبيق الذي تريده',
    followUpPromptLabel: 'ما الذي تريد تغييره؟',
    promptPlaceholder: 'موقع حجوزات لاستوديو يوغا فيه تقويم للحصص ونموذج للتسجيل',
    followUpPromptPlaceholder: 'اجعل الترويسة ثابتة وأضف صفحة للتواصل',
    promptHint: 'اذكر الغرض منه، والصفحات التي يحتاجها، والمظهر الذي تريده.',
    followUpPromptHint: 'صِف تعديلًا واحدًا في كل مرة.',
    promptTooShort: 'يجب ألا يقل الوصف عن 10 أحرف.',
    modeLegend: 'الوضع',
    modeBuild: 'بناء',
    modeBuildDescription: 'تطبيق متكامل بواجهته الأمامية والخلفية.',
    modeDesign: 'تصميم',
    modeDesignDescription: 'تصميم يركّز على الواجهة الأمامية.',
    submit: 'إنشاء',
    followUpSubmit: 'إرسال التعديل',
    submitting: 'جارٍ العمل…',
    cancel: 'إيقاف المتابعة',
    newProject: 'مشروع جديد',
    errorTitle: 'تعذّر بدء إنشاء تطبيقك',
    followUpErrorTitle: 'تعذّر إرسال تعديلك',
    connectionDroppedTitle: 'انقطع الاتصال',
    connectionDroppedHint: 'إن بدأ بناء تطبيقك رغم ذلك، فسيظهر ضمن مشاريعك.',
    followUpConnectionDroppedHint: 'ربما وصل تعديلك إلى الخادم. تحقّق من تطبيقك قبل إرساله مرة أخرى.',
    buyCredits: 'شراء رصيد',
    followUpTarget: (projectName) => `تُطبَّق التعديلات على ${projectName}.`,
    unnamedProject: 'تطبيقك',
    followUpWhenBuilt: 'يجري بناء هذا التطبيق. يمكنك إرسال تعديل عند اكتماله.',
  },
  liveBuildLog: {
    regionLabel: 'تقدّم البناء',
    heading: 'تقدّم البناء',
    idle: 'لا يُبنى شيء بعد.',
    progressLabel: 'تقدّم البناء',
    progressValue: (percentage) => `اكتمل ${percentage}`,
    stages: {
      none: '',
      sending: 'جارٍ إرسال طلبك…',
      container: 'جارٍ تجهيز مساحة لتطبيقك…',
      generating: 'جارٍ كتابة تطبيقك…',
      done: 'انتهى.',
    },
    otherTool: 'خطوة',
    toolNames: {
      plan: 'التخطيط',
      write_files: 'كتابة الملفات',
      install_dependencies: 'تثبيت الاعتماديات',
      run_build: 'البناء',
      run_tests: 'الاختبار',
      build: 'البناء',
      read_context: 'قراءة السياق',
    },
    filesLabel: 'الملفات المُنشأة',
    fileCount: (created, modified) =>
      modified === '0'
        ? `الملفات الجديدة: ${created}`
        : created === '0'
          ? `الملفات المعدّلة: ${modified}`
          : `الملفات الجديدة: ${created} · المعدّلة: ${modified}`,
    fileCreated: 'جديد',
    fileModified: 'معدّل',
    toolsLabel: 'خطوات الوكيل',
    toolsOmitted: (count, value) => `لم تُعرض ${counted(value, count, steps)} سابقة`,
    unknownEvents: (count, value) => counted(value, count, updates),
    completed: 'تطبيقك جاهز.',
    openApp: 'فتح التطبيق',
    unsafeUrl: 'عنوان التطبيق ليس عنوان ويب، لذا لا يُعرض رابطًا.',
    creditsExhausted: 'نفد رصيدك.',
    creditsExhaustedHint: 'اشترِ رصيدًا إضافيًا لمواصلة البناء.',
    buyCredits: 'شراء رصيد',
    failed: 'فشل البناء.',
    changeFailed: 'فشل التعديل.',
    recovering: 'انقطع الاتصال. جارٍ إعادة الاتصال بعملية البناء…',
    buildingElsewhere: 'يجري بناء هذا التطبيق. ستظهر النتيجة هنا عند اكتماله.',
    interrupted: 'انقطع الاتصال ولم نتمكن من معرفة نتيجة البناء.',
    stopped: 'أوقفت متابعة عملية البناء هذه.',
    stoppedHint: 'قد يكتمل البناء على الخادم رغم ذلك، وستظهر النتيجة هنا عندئذٍ.',
    stoppedUnnamedHint: 'إن أكمل الخادم البناء رغم ذلك، فسيكون التطبيق ضمن مشاريعك.',
    checkingIn: (seconds) => `سنتحقّق مرة أخرى بعد ${seconds} ث.`,
    announcements: {
      idle: '',
      submitting: 'جارٍ إرسال طلبك.',
      provisioning: 'جارٍ تجهيز مساحة لتطبيقك.',
      generating: 'جارٍ كتابة تطبيقك.',
      recovering: 'انقطع الاتصال. جارٍ إعادة الاتصال بعملية البناء.',
      stopped: 'توقفت المتابعة. قد يكتمل البناء رغم ذلك.',
      ready: 'تطبيقك جاهز.',
      credits_exhausted: 'نفد رصيدك.',
      failed: 'فشل البناء.',
      interrupted: 'انقطع الاتصال.',
      gone: 'تعذّر العثور على هذا المشروع.',
    },
  },
  projectStatus: {
    regionLabel: 'حالة المشروع',
    heading: 'المشروع',
    noProject: 'لا يوجد مشروع بعد.',
    loading: 'جارٍ تحميل حالة المشروع…',
    nameLabel: 'الاسم',
    statusLabel: 'الحالة',
    appLabel: 'التطبيق',
    openApp: 'فتح التطبيق',
    unsafeUrl: 'ليس عنوان ويب',
    updatedLabel: 'آخر تحديث',
    never: 'ليس بعد',
    paused: 'تتوقف التحديثات مؤقتًا ما دامت هذه الصفحة مخفية.',
    errorPrefix: 'تعذّر تحميل الحالة:',
  },
  appPreview: {
    regionLabel: 'معاينة التطبيق',
    frameTitle: 'معاينة التطبيق المُنشأ',
    empty: 'سيظهر تطبيقك هنا.',
    waiting: {
      idle: '',
      submitting: 'سيظهر تطبيقك هنا عند اكتمال بنائه.',
      provisioning: 'سيظهر تطبيقك هنا عند اكتمال بنائه.',
      generating: 'سيظهر تطبيقك هنا عند اكتمال بنائه.',
      recovering: 'جارٍ إعادة الاتصال بعملية البناء…',
      stopped: 'قد يكتمل البناء على الخادم، وسيظهر التطبيق هنا عندئذٍ.',
      ready: '',
      failed: 'لم يكتمل البناء، فلا يوجد ما يُعرض.',
      credits_exhausted: 'توقف البناء عند نفاد الرصيد.',
      interrupted: 'لم نتمكن من معرفة نتيجة البناء.',
      gone: 'تعذّر العثور على هذا المشروع. ربما حُذف؛ ابدأ مشروعًا جديدًا.',
    },
    stoppedUnnamed: 'إن أكمل الخادم البناء رغم ذلك، فسيكون التطبيق ضمن مشاريعك.',
    unsafeUrl: 'عنوان التطبيق ليس عنوان ويب، لذا لا يمكن معاينته.',
    updating: 'جارٍ تحديث تطبيقك…',
    reload: 'إعادة التحميل',
    openInNewTab: 'فتح التطبيق',
    devicesLabel: 'عرض المعاينة',
    mobile: 'الجوال',
    tablet: 'الجهاز اللوحي',
    desktop: 'سطح المكتب',
  },
  usageMeter: {
    left: (left, limit, period) => {
      switch (period) {
        case 'day':
          return `المتبقي اليوم: ${left} من ${limit}`;
        case 'week':
          return `المتبقي هذا الأسبوع: ${left} من ${limit}`;
        case 'month':
          return `المتبقي هذا الشهر: ${left} من ${limit}`;
        default:
          return `المتبقي: ${left} من ${limit}`;
      }
    },
    moreAt: (when) => `يتاح المزيد في ${when}`,
  },
  agentBuilder: {
    regionLabel: 'منشئ التطبيقات',
    toolbarLabel: 'المشروع',
    buildLabel: 'المحادثة',
    resultLabel: 'المعاينة',
    shipLabel: 'النشر',
    shipTitle: 'انشر تطبيقك',
    plansLabel: 'الباقات',
    projectsLabel: 'المشاريع',
    recentLabel: 'متابعة مشروع',
    allProjects: (_count, formatted) => `كل المشاريع (${formatted})`,
    close: 'إغلاق',
    newProject: 'مشروع جديد',
    newApp: 'تطبيق جديد',
    changeFailed: 'فشل التعديل الأخير',
    showDetails: 'عرض تفاصيل البناء',
    hideDetails: 'إخفاء تفاصيل البناء',
    tabs: { chat: 'المحادثة', preview: 'المعاينة', ship: 'النشر' },
    appReady: 'تطبيقك جاهز.',
    seeApp: 'اعرضه في المعاينة',
  },
  ...integrations,
};
