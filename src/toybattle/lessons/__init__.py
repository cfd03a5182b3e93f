"""Learn to play: lessons on prepared positions checked by the rules engine, and the rules and FAQ as data."""
from .check import check_all, check_lesson
from .lesson import Lesson, LessonError, all_lessons, lesson, topics
from .play import Attempt, judge, play

__all__ = [
           "Attempt",
           "Lesson",
           "LessonError",
           "all_lessons",
           "check_all",
           "check_lesson",
           "judge",
           "lesson",
           "play",
           "topics",
]
