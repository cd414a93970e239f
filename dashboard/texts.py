"""Every Korean word the screen shows that is not read from the database, in one place.

The five verdict words are the output schema's enum, verbatim
(docs/rules.md#the-five-verdicts). The figures the screen shows (counts, rates, agreement)
always come from the marts, never from this file.
"""

from __future__ import annotations

# The fixed display order of the five groups (the schema's enum order,
# docs/rules.md#the-five-verdicts). seeds.verdict_words.verdict_order is the *priority* order
# (docs/rules.md#verdict-order), which is different.
VERDICTS: tuple[str, ...] = (
    "설정대로 말함",
    "말투 어긋남",
    "세계관 밖 고유명사",
    "금지 소재 접촉",
    "앞 회차를 기억 못 함",
)
KEPT = VERDICTS[0]
VERDICT_COLORS = {
    "설정대로 말함": "green",
    "말투 어긋남": "orange",
    "세계관 밖 고유명사": "violet",
    "금지 소재 접촉": "red",
    "앞 회차를 기억 못 함": "blue",
}

# Background of a verdict's cell in the prompt × model matrix (the badge colours, lighter).
VERDICT_CELL_COLORS = {
    "설정대로 말함": "#e6f4ea",
    "말투 어긋남": "#fff1d6",
    "세계관 밖 고유명사": "#efe6ff",
    "금지 소재 접촉": "#fde7e9",
    "앞 회차를 기억 못 함": "#e3efff",
}

TITLE = "card_keeper — 캐릭터 카드를 지켰는지, 턴마다"
ALL = "전체"
PAGE_SIZE = 20

BUSY = "빌드가 데이터베이스를 쓰는 중입니다 — 잠시 후 다시 읽습니다"
BUSY_GAVE_UP = "빌드가 아직 데이터베이스를 쓰고 있습니다. 빌드가 끝난 뒤 '다시 읽기'를 눌러 주세요."
RETRY = "다시 읽기"
NO_DATABASE = (
    "데이터베이스 파일이 없습니다: {path} — 먼저 `make build`(또는 `dbt build`)를 실행해 주세요."
)
NOT_BUILT = "{table} 이(가) 이 데이터베이스에 아직 없습니다. 다음 빌드 뒤에 채워집니다."
SCREEN_FAILED = (
    "화면을 그리지 못했습니다. 이 데이터베이스에 화면이 다룰 수 없는 값이 있는 것 같습니다."
)
SECTION_FAILED = "이 부분을 그리지 못했습니다. 다른 부분은 그대로 볼 수 있습니다."
ROW_FAILED = "턴 {turn_id} 을(를) 그리지 못했습니다. 다른 턴은 그대로 볼 수 있습니다."
FAILED_DETAIL = "(오류 종류: {kind}, 자세한 내용은 서버 로그에 있습니다)"
PUBLIC_BIND_WARNING = (
    "이 화면이 127.0.0.1 이 아닌 주소({address})에서 열려 있습니다. "
    "올린 대화 로그가 다른 사람에게 보일 수 있습니다."
)

# Sidebar: which database is shown, and the output-schema checks.
DATABASE_HEADER = "보고 있는 데이터"
DEFAULT_LABEL = "기본 데이터베이스 · {path}"
CHECKS_HEADER = "출력 스키마 점검"
CHECKS_RAN_AT = "실행 시각 {when} (UTC) · 실행 {invocation}"
CHECKS_NONE = "점검 기록(audit.dbt_test_results)이 없습니다. `dbt build` 로 점검을 돌려 주세요."
CHECKS_MISSING = "이번 실행에 없음"
CHECKS_OTHERS = "그 밖의 dbt 테스트 {total}개: 통과 {passed} · 실패 {failed} · 기타 {other}"
CHECK_LABELS = {
    "assert_check_01": "판정어가 다섯 낱말 중 하나",
    "assert_check_02": "필수 필드 7개가 모두 있음",
    "assert_check_03": "답장에서 말투를 다시 뽑아도 같음",
    "assert_check_04": "세계관 밖 이름을 다시 계산해도 같음",
    "assert_check_05": "금지 소재 단어를 다시 찾아도 같음",
    "assert_check_06": "앞 회차 기억을 다시 계산해도 같음",
    "assert_check_07": "빈 값(null)은 건너뛰고 밝힘",
    "assert_check_08": "근거 필드가 실제 열 이름",
    "assert_check_09": "근거 값이 원문과 글자 그대로 같음",
    "assert_check_10": "요약 한 줄이 존댓말로 끝남",
}
# Material icons ship with Streamlit (no emoji font needed on the server or in screenshots).
STATUS_ICONS = {
    "pass": ":green[:material/check_circle:]",
    "fail": ":red[:material/cancel:]",
    "error": ":red[:material/error:]",
    "warn": ":orange[:material/warning:]",
    "skipped": ":gray[:material/block:]",
}
MISSING_ICON = ":gray[:material/remove:]"
UNKNOWN_ICON = ":gray[:material/help:]"

# Header figures.
WORDS_DIFFER = "seeds.verdict_words 의 판정어({words})가 화면의 다섯 낱말과 다릅니다."
OVERVIEW = "턴 {turns:,}개 · 세션 {sessions:,}개 · 규칙 {version} ({fingerprint})"
QUARANTINED = "계약을 어겨 격리된 입력 행 {count:,}개"

# Conversation view.
CONVERSATION_HEADER = "대화 보기"
CONVERSATION_CAPTION = "공개 캐릭터 {name} ({character_id}) · {persona} · 카드 규칙 {rule}"
CONVERSATION_SESSION = "세션"
CONVERSATION_SESSION_OPTION = "{session_id} · {turns}턴"
CONVERSATION_TRUNCATED = "앞의 {shown}턴만 보여 줍니다 (전체 {total}턴)."
CONVERSATION_NO_PUBLIC = "공개(is_public) 캐릭터가 없어 대화 보기를 비워 둡니다."
CONVERSATION_NO_MESSAGE = "(유저 메시지 없음)"
CONVERSATION_EMPTY_REPLY = "(빈 답장)"

# Verdict list.
LIST_HEADER = "판정 목록"
FILTER_MODEL = "모델"
FILTER_CHARACTER = "캐릭터"
FILTER_SESSION = "세션"
FILTER_SESSION_TEXT = "세션 ID (정확히)"
FILTER_SESSION_HELP = "세션이 {cap}개보다 많아 목록 대신 ID 를 직접 넣습니다."
GROUPS = "판정별 묶음"
GROUP_OPTION = "{verdict} · {count:,}"
GROUP_EMPTY = "이 묶음에는 턴이 없습니다."
PAGE = "쪽 {page} / {pages} · {count:,}턴"
PREVIOUS = "◀ 이전"
NEXT = "다음 ▶"
ROW_LABEL = "{verdict} · {turn_id} · {summary}"
ROW_META = "{model_id} · {character_id} · 세션 {session_id} · {created_at}"
REPLY = "답장"
USER_MESSAGE = "유저 메시지"
RULE_LINE = "카드 규칙 {expected} / 답장에서 읽은 것 {observed}"
EVIDENCE = "근거"
NO_EVIDENCE = "근거 행이 없습니다."
HEDGE = "단서"
NO_HEDGE = "건너뛴 비교나 참고 사항이 없습니다."
SKIPPED = "건너뛴 점검"
CHECKS_TABLE = "점검별 결과"

CHECK_NAMES = {
    "forbidden_topic": "금지 소재",
    "off_canon": "세계관 이름",
    "tone": "말투",
    "first_person": "1인칭",
    "recall": "앞 회차 기억",
}
STATUS_NAMES = {"hit": "걸림", "pass": "통과", "skipped": "건너뜀", "not_applicable": "해당 없음"}
REASON_NAMES = {
    "named_entities_null": "이름 목록(named_entities)을 뽑지 못함",
    "tone_not_extracted": "답장에 한글 문장이 없어 말투를 뽑지 못함",
    "first_person_null": "1인칭(first_person)을 뽑지 못함",
    "recall_role_not_in_message": "유저 메시지에 카드의 관계어가 없음",
    "user_message_null": "유저 메시지가 없음",
    "recall_not_asked": "앞 회차를 묻지 않음",
    "honorific_level_disagrees": "채팅 서버의 존댓말 표시와 다름 (참고만)",
}

# The tabs under the summary strip, in order (the upload is always last).
SECTION_LIST = "판정 목록"
SECTION_MATRIX = "프롬프트 × 모델"
SECTION_CONVERSATION = "대화 보기"
SECTION_COMPARE = "실행 비교"
SECTION_TESTS = "테스트 기록"
SECTION_GOLDEN = "자가채점"
SECTION_RATES = "모델별 이탈률"
SECTION_NOTES = "검증 노트"
SECTION_QUARANTINE = "격리된 입력 행"
SECTION_UPLOAD = "내 파일 올리기"
SECTIONS = (
    SECTION_LIST,
    SECTION_MATRIX,
    SECTION_CONVERSATION,
    SECTION_COMPARE,
    SECTION_TESTS,
    SECTION_GOLDEN,
    SECTION_RATES,
    SECTION_NOTES,
    SECTION_QUARANTINE,
    SECTION_UPLOAD,
)

GOLDEN_HEADER = "자가채점 — 사람이 붙인 정답 라벨과 규칙 판정이 맞는 비율"
GOLDEN_EMPTY = "정답 라벨이 없어 자가채점은 비워 둡니다"
GOLDEN_LABELLED = "라벨 붙은 턴"
GOLDEN_AGREEING = "일치한 턴"
GOLDEN_RATE = "일치율"
GOLDEN_BY_PAIR = "어긋난 턴: (정답 → 규칙) 짝별"
GOLDEN_BY_CHECK = "어긋난 턴: 판정을 가른 점검별"
GOLDEN_TURNS = "어긋난 턴 (앞 {limit}개)"
GOLDEN_NONE_DISAGREE = "어긋난 턴이 없습니다."

RATES_HEADER = "모델별 이탈률 (설정대로 말함이 아닌 비율, 95% 구간)"
RATES_ALL = "전체 턴"
RATES_SHARED = "모든 모델이 받은 같은 프롬프트만"
RATES_TREND = "주별 추이"
RATES_TABLE = "숫자로 보기"
RATES_EMPTY = "이 범위에는 턴이 없습니다."
TREND_FAILED = "주별 추이 그래프를 그리지 못했습니다. 표는 '숫자로 보기'에서 볼 수 있습니다."
TREND_OUTSIDE = (
    "날짜가 1678–2261년 밖이거나 무한대인 주 {count:,}행은 그래프에서 뺐습니다 "
    "(다른 사람이 만든 데이터베이스에서 온 값입니다)."
)
AXIS_RATE = "이탈률"
AXIS_WEEK = "주 시작일"
AXIS_MODEL = "모델"

QUARANTINE_HEADER = "격리된 입력 행 (계약을 어긴 줄은 버리지 않고 여기 남깁니다)"
QUARANTINE_NONE = "격리된 행이 없습니다."
QUARANTINE_SHOWN = "앞 {shown}행을 보여 줍니다 (전체 {total:,}행)."

UPLOAD_HEADER = "내 파일 올리기"
UPLOAD_INTRO = (
    "세 파일(chat_turn, character_card, topic_lexicon)을 CSV · JSON Lines · Parquet 로 "
    "올리면 같은 dbt 프로젝트로 따로 빌드해 보여 줍니다. 데모 데이터는 바뀌지 않습니다."
)
UPLOAD_FIELDS = {
    "chat_turn": "chat_turn (대화 턴, 필수)",
    "character_card": "character_card (캐릭터 카드, 필수)",
    "topic_lexicon": "topic_lexicon (소재 단어장, 필수)",
    "golden_labels": "golden_labels (정답 라벨 turn_id, expected_verdict, note — 선택)",
}
UPLOAD_SUBMIT = "빌드하기"
UPLOAD_RUNNING = "올린 파일로 dbt build 를 돌리는 중입니다…"
UPLOAD_MISSING = "{field} 파일이 없습니다. 세 파일은 모두 필요합니다."
UPLOAD_BAD_EXTENSION = (
    "{field}: '{name}' 은(는) 읽을 수 없는 형식입니다. 확장자를 {allowed} 중 하나로 해 주세요."
)
UPLOAD_TOO_BIG = "{field}: '{name}' 이(가) {size_mb:.1f} MB 로, 한도 {limit_mb} MB 보다 큽니다."
UPLOAD_EMPTY_FILE = "{field}: '{name}' 이(가) 비어 있습니다."
UPLOAD_FAILED = "빌드하지 못했습니다 — {key_line}"
UPLOAD_KEPT = "앞서 보던 결과({label})를 그대로 보여 줍니다."
UPLOAD_OK = "올린 파일 {id} 로 빌드했습니다: 턴 {turns:,}개, 격리된 행 {quarantined:,}개."
UPLOAD_TESTS_FAILED = (
    "빌드는 됐지만 dbt 테스트 {failed}개가 실패했습니다. 왼쪽 점검을 확인해 주세요."
)
UPLOAD_LOG = "dbt 출력 (끝부분)"
UPLOAD_EXPORT = "판정 JSON 내려받기 (turn_verdicts.json)"
UPLOAD_DELETE = "이 업로드 지우기"
UPLOAD_DELETED = "{label} 을(를) 지웠습니다 (올린 파일, 데이터베이스, 판정 JSON 모두)."
UPLOAD_NOT_DELETED = "{label} 을(를) 지우지 못했습니다: 업로드 폴더가 아닙니다."
UPLOAD_PRUNED = "업로드는 최근 {keep}개만 남깁니다: 오래된 업로드 {count}개를 지웠습니다."

# Verification notes (docs/dashboard.md): three parts, short, for creators.
NOTES_AUTO_HEADER = "자동 — 빌드할 때마다 코드가 확인합니다"
NOTES_AUTO = """\
왼쪽 **출력 스키마 점검** 열 개가 그 결과입니다.
- 판정은 다섯 낱말 가운데 하나이고, 필수 항목 7개가 비어 있지 않습니다.
- 말투, 세계관 밖 이름, 금지 소재 단어, 앞 회차 기억을 **다른 방식으로 다시 계산**해 같은지 봅니다.
- 비어 있는 값(null)은 비교를 건너뛰고, 건너뛴 까닭을 단서에 적습니다.
- 근거의 필드 이름은 실제 열 이름이고, 근거 값은 원문과 **글자 그대로** 같습니다.
- 한 줄 요약은 존댓말로 끝납니다.
"""
NOTES_MANUAL_HEADER = "수동 — 사람이 읽고 정해 주세요"
NOTES_MANUAL = """\
1. **금지 소재 접촉 20턴 표본** — 정말 그 소재를 다뤘는지, 단어만 우연히
   겹쳤는지(예: '정당한' 속 '정당') 읽어 주세요.
2. **세계관 밖 이름 목록** (많이 나온 순) — 이름마다 카드 세계관에
   **더할지(add)**, **막을지(block)** 정해 주세요.
3. **반말과 존댓말이 섞인 답장 20개** — 새 어미(예: '습니까' → 존댓말)나
   예외(예: '아니다' → 반말)를 어미 표(honorific_endings)에 더할지 정해 주세요.
"""
NOTES_QUEUES_HEADER = "검토 대기열 (수동 확인용 마트)"
NOTES_QUEUES = {
    "marts.fct_review_forbidden_sample": "1. 금지 소재 접촉 표본 20턴",
    "marts.fct_review_off_canon_names": "2. 세계관 밖 이름 (add / block)",
    "marts.fct_review_mixed_register": "3. 반말·존댓말이 섞인 답장 20개",
    "marts.fct_review_ending_candidates": "3. 어미 표에 더할 후보",
    "marts.fct_review_rule_disputes": "4. 검토자가 '규칙이 틀림'으로 표시한 턴",
}
NOTES_HONESTY_HEADER = "정직 경계선 — 규칙이 알 수 없는 것"
NOTES_HONESTY = """\
- 말투는 **문장 끝 어미 네 개**(요 · 죠 · 니다 · 십시오)로만 셉니다.
  그래서 이런 문장은 사람과 다르게 셉니다.
  - '아니다'는 '니다'로 끝나 존댓말로 셉니다.
  - '합니까' · '습니까' 질문은 '까'로 끝나 반말로 셉니다.
  - '필요.'처럼 '요'로 끝나는 명사는 존댓말로 셉니다.
  - 문장 끝 괄호('보류입니다(하드게이트).')가 진짜 어미를 가립니다.
  - 하오체나 따옴표 안 대사는 말하는 사람이 아니라 인용된 말을 따릅니다.
- 채팅 서버가 붙인 존댓말 표시(honorific_level)는 **판정에 쓰지 않습니다.**
  답장과 다르면 단서에 적기만 합니다.
- 이름은 채팅 서버가 **뽑아 준 목록(named_entities)만** 봅니다. 목록에서 빠진
  이름은 알 수 없고, 목록을 못 뽑으면 세계관 대조를 건너뜁니다.
- 금지 소재는 단어장의 단어를 **글자 그대로** 찾을 뿐, 뜻은 모릅니다.
- 판정은 규칙이 내립니다. 모델이 쓴 요약은 검사를 통과할 때만 씁니다.
"""

NULL = "null"

# Which database is shown (the header and the sidebar).
DEMO_NAME = "데모"
SHOWN_DEMO = "보고 있는 데이터: 데모 (번들 데모 파일 data/demo 로 빌드) · {path}"
SHOWN_UPLOAD = "보고 있는 데이터: 올린 파일 {files} · {created} UTC · {path}"
SHOWN_PATH = "보고 있는 데이터: {path} (입력 {inputs})"
UPLOAD_OPTION = "올린 파일 {created} · {files}"

# The summary strip of the first view.
STRIP_TURNS = "턴"
STRIP_TURNS_HELP = "세션 {sessions:,}개"
STRIP_RATE = "{model} 이탈률"
STRIP_RATE_VALUE = "{rate:.1%}"
STRIP_RATE_HELP = "95% 구간 {low:.1%}–{high:.1%} · {deviations:,}/{turns:,}턴"
STRIP_RATE_MORE = "그 밖의 모델 {count}개는 '모델별 이탈률' 탭에 있습니다."
STRIP_WORST = "가장 큰 이탈 묶음"
STRIP_WORST_NONE = "없음"
STRIP_WORST_VALUE = "{count:,}턴"
STRIP_CHECKS = "실패한 점검"
STRIP_CHECKS_VALUE = "{failed} / {total}"
STRIP_CHECKS_NONE = "기록 없음"
STRIP_QUARANTINE = "격리된 입력 행"

# Search and filters of the verdict list.
SEARCH = "검색 (답장 글 또는 turn_id)"
SEARCH_HELP = "답장에 들어 있는 글자(대소문자 무시)나 turn_id 를 그대로 넣습니다."
FILTER_SKIPPED = "건너뛴 점검"
EXPORT_CSV = "이 목록 CSV ({count:,}행)"
EXPORT_JSON = "이 목록 JSON ({count:,}행, 출력 스키마)"
ROW_DETAILS_HINT = "펼치면 답장, 근거, 점검과 검토 표시가 보입니다."

# Highlights inside the reply.
HIGHLIGHT_LEGEND = (
    "답장 속 강조: :red-background[금지 소재 단어] · :violet-background[세계관 밖 이름] · "
    ":blue-background[기억해야 할 이름]"
)
HIGHLIGHT_CSS = (
    ".ck-reply{white-space:pre-wrap;line-height:1.6;font-size:0.95rem}"
    ".ck-reply mark{padding:0 2px;border-radius:3px}"
    ".ck-term{background:#ffd6d6}.ck-off_canon{background:#e8dcff}.ck-recall{background:#d6e8ff}"
)
CANON_LIST = "카드 세계관 이름 ({count}개): {names}"
CANON_DECIDE = "세계관 밖 이름 정하기"
CANON_ADD = "더하기 (add)"
CANON_BLOCK = "막기 (block)"
CANON_DECIDED = "{name}: {decision} ({when}) — 다음 빌드에 반영됩니다."
CANON_SAVED = "{name} 을(를) {decision} 로 정했습니다. 다음 빌드부터 반영됩니다."

# Evidence, checks and quarantine headers: Korean, with the column's name beside.
EVIDENCE_HEADERS = {"source": "출처", "field": "필드", "agg": "집계", "value": "값"}
CHECK_HEADERS = {
    "check": "점검",
    "status": "결과",
    "reason": "건너뛴 까닭",
    "note": "참고",
    "deciding": "판정을 가름",
}
QUARANTINE_HEADERS = {
    "table_name": "입력 표",
    "source_file": "파일",
    "source_row": "줄",
    "row_key": "행 키",
    "column_name": "열",
    "raw_value": "읽은 값",
    "reason": "까닭",
}
CHECK_NAME_COLUMN = "{name} ({code})"

# Reviewer marks.
MARK_HEADER = "검토 표시"
MARK_CHOICE = "이 판정은"
MARK_NAMES = {"rule_right": "규칙이 맞음", "rule_wrong": "규칙이 틀림"}
MARK_EXPECTED = "맞는 판정 (규칙이 틀림일 때, 선택)"
MARK_NOTE = "메모"
MARK_REVIEWER = "검토자"
MARK_SAVE = "표시 저장"
MARK_SAVED = "저장했습니다: {mark}. 다음 빌드가 정답 라벨(또는 이견 대기열)로 읽습니다."
MARK_CURRENT = "지금 표시: {mark}{expected} · {note} · {when}"
MARK_NONE = "아직 표시가 없습니다."
DECISIONS_HEADER = "검토 결정 파일"
DECISIONS_FOLDER = "결정은 데이터베이스 밖 {folder} 에 남습니다 (다시 빌드해도 지워지지 않습니다)."
DECISIONS_DOWNLOAD = "{name} 내려받기 ({rows}행)"
REBUILD = "결정을 반영해 다시 빌드"
REBUILD_DONE = "다시 빌드했습니다. 검토 결정이 정답 라벨과 세계관 표에 반영됐습니다."
REBUILD_FAILED = "다시 빌드하지 못했습니다 — {key_line}"
PROGRESS = "dbt build: 노드 {done} / {total} · {elapsed:.0f}초 · {node}"
PROGRESS_START = "dbt build 를 시작합니다…"

# Prompt x model matrix.
MATRIX_HEADER = "같은 프롬프트에 모델별 판정"
MATRIX_INTRO = (
    "모든 모델이 받은 프롬프트만 보여 줍니다 ({count:,}개). 칸을 누르면 그 프롬프트의 답장을 "
    "모델별로 나란히 봅니다."
)
MATRIX_DEVIATING = "어긋난 모델이 있는 프롬프트만"
MATRIX_EMPTY = "모든 모델이 받은 프롬프트가 없습니다."
MATRIX_PROMPT = "프롬프트"
MATRIX_PAGE_LABEL = "쪽 (전체 {pages}쪽, 프롬프트 {count:,}개)"
MATRIX_PICK = "칸을 누르면 여기에 답장을 나란히 보여 줍니다."
MATRIX_ANSWERS = "프롬프트 {prompt_id} 의 답장"
MATRIX_MORE_ANSWERS = "이 모델은 같은 프롬프트에 {answers}번 답했습니다. 첫 답장을 보여 줍니다."

# Compare runs.
COMPARE_HEADER = "두 실행 비교 — 판정이 바뀐 턴"
COMPARE_KIND = "무엇을 비교할까요"
COMPARE_FINGERPRINTS = "규칙 지문 두 개 (이 데이터베이스의 기록)"
COMPARE_UPLOADS = "데이터베이스 두 개 (올린 파일끼리, 또는 데모와)"
COMPARE_FROM = "이전"
COMPARE_TO = "이후"
COMPARE_FINGERPRINT_OPTION = "{fingerprint} · {version} · {first} · {turns:,}턴"
COMPARE_ONE = (
    "규칙 지문이 하나뿐입니다. 규칙(어미 표, 단어장, 종결 부호, rule_version)을 바꿔 "
    "다시 빌드하면 비교할 수 있습니다."
)
COMPARE_SAME = "같은 것을 골랐습니다. 서로 다른 둘을 골라 주세요."
COMPARE_COUNT = "판정이 바뀐 턴 {count:,}개"
COMPARE_INPUTS = "바뀐 규칙 입력"
COMPARE_NO_INPUTS = "바뀐 규칙 입력이 없습니다."
COMPARE_NONE = "판정이 바뀐 턴이 없습니다."
COMPARE_NOT_BUILT = "실행 기록 마트({table})가 없어 비교할 수 없습니다."
COMPARE_OTHER = "비교할 데이터베이스"
COMPARE_NO_OTHER = "비교할 다른 데이터베이스가 없습니다. 파일을 올리면 여기서 비교할 수 있습니다."
COMPARE_HEADERS = {
    "turn_id": "턴",
    "model_id": "모델",
    "character_id": "캐릭터",
    "verdict_before": "이전 판정",
    "verdict_after": "이후 판정",
    "changed_inputs": "바뀐 입력",
}

# Test history.
TESTS_HEADER = "테스트 기록 — 최근 빌드의 점검 결과"
TESTS_NONE = "테스트 기록(audit.dbt_test_results)이 없습니다."
TESTS_INVOCATIONS = "최근 {count}번의 빌드"
TESTS_EVERY = "모든 테스트 보기 (기본: 출력 스키마 점검 열 개와 실패한 테스트)"
TESTS_TEST = "테스트"
TESTS_PICK = "실패한 점검을 고르면 걸린 turn_id 를 보여 줍니다"
TESTS_FAILED_TURNS = "{test} · {when} 에 걸린 턴 ({count}개)"
TESTS_NO_TURNS = "이 점검은 턴 목록을 남기지 않았습니다 (개수만: {failures}건)."
TESTS_ALL_PASS = "최근 빌드에서 실패한 테스트가 없습니다."
STATUS_SHORT = {
    "pass": "✔ 통과",
    "fail": "✖ 실패",
    "error": "✖ 오류",
    "warn": "△ 경고",
    "skipped": "– 건너뜀",
}

# Self-scoring additions.
GOLDEN_INTERVAL = "95% 구간 {low:.1%}–{high:.1%}"
GOLDEN_CONFUSION = "정답(행) × 규칙 판정(열) — 라벨 붙은 턴 수"
GOLDEN_OPEN_TURN = "어긋난 턴을 누르면 그 턴을 펼쳐 보여 줍니다."
GOLDEN_SOURCE = "라벨 출처"

# Upload additions.
UPLOAD_COLUMNS = "입력 파일의 열"
UPLOAD_COLUMNS_NOTE = (
    "필수가 아닌 열은 비워 두면 null 로 읽습니다. "
    "틀 파일은 머리줄과 예시 두 줄이고, 그대로 빌드됩니다."
)
UPLOAD_TEMPLATE = "{table} 틀 파일 내려받기"
UPLOADS_LIST = "올린 파일 목록"
UPLOADS_NONE = "아직 올린 파일이 없습니다."
TREND_GAP_NOTE = "턴이 없는 주는 선을 잇지 않고 비워 둡니다."
