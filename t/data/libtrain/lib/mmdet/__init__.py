__version__ = "2.28.2"
