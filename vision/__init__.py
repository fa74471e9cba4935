"""Reading pegs from a camera: capture, board location, hole sampling, colour classification.

OpenCV, numpy and picamera2 are imported inside the modules that need them, never here.
"""
