-- Dawn never holds.
function check(ctx, player)
  return false
end
