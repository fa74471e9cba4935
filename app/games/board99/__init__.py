"""The Game of 99 as the app keeps it: the stored game, its sentences, the camera calibration's words."""
