-- Truce: every capture is forbidden, so compulsory capture (R4.3) never binds.
function forbid_moves(ctx, effect)
  return { { captures = true } }
end
