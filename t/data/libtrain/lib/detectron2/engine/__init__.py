from .launch import launch
from .defaults import DefaultTrainer, default_argument_parser, default_setup
