"""The Kivy touchscreen app. The only package that imports kivy (besides commands that start it)."""
